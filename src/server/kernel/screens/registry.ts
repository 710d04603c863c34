import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import { checkScreenFile, type ScreenProblem } from './check.js';
import { commandProblems, type RouteCheck } from './commands.js';
import { viewProblems } from './views.js';
import { copyProblems } from './copies.js';
import { SHIPPED_SCHEMAS } from '../paths.js';

export const SCHEMA_DIR = SHIPPED_SCHEMAS;

/**
 * Every screen under schemas/screens/, kept current while the server runs: a changed file is read
 * again; a broken one is reported (file + JSON path) and its last good version keeps serving.
 */
export class ScreenRegistry extends EventEmitter {
  private byFile = new Map<string, ScreenSchema>();
  private problemsByFile = new Map<string, ScreenProblem>();
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private routeCheck: RouteCheck | undefined;
  private recordsHeld: Promise<unknown> = Promise.resolve();

  constructor(private readonly schemaDir = SCHEMA_DIR) {
    super();
  }

  get screensDir() {
    return path.join(this.schemaDir, 'screens');
  }

  /**
   * Once the server's routes exist, command endpoints are checked too: a screen naming a call the server
   * does not implement is a problem of its file. Screens read before then were never checked, so one
   * that fails now stops serving.
   */
  useRouteCheck(check: RouteCheck): void {
    this.routeCheck = check;
    const changed: string[] = [];
    const ids: string[] = [];
    for (const [file, screen] of [...this.byFile]) {
      const first = commandProblems(screen, check)[0];
      if (!first) continue;
      this.byFile.delete(file);
      this.problemsByFile.set(file, { file: path.relative(path.dirname(this.schemaDir), file), ...first });
      changed.push(file);
      ids.push(screen.id);
    }
    for (const problem of this.problemsByFile.values()) this.emit('problem', problem);
    this.announce(changed, ids);
  }

  /** Reads every file; answers the files whose screen changed. */
  reload(): string[] {
    const dir = this.screensDir;
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => path.join(dir, f))
      : [];
    const changed: string[] = [];
    const ids: string[] = [];
    for (const [file, screen] of [...this.byFile]) {
      if (!files.includes(file)) {
        this.byFile.delete(file);
        changed.push(file);
        ids.push(screen.id);
      }
    }
    for (const file of [...this.problemsByFile.keys()]) if (!files.includes(file)) this.problemsByFile.delete(file);
    for (const file of files) {
      const result = this.check(file);
      if ('problem' in result) {
        this.problemsByFile.set(file, result.problem);
        continue;
      }
      this.problemsByFile.delete(file);
      const clash = this.list().find((s) => s.resource.name === result.screen.resource.name && this.fileOf(s) !== file);
      const idClash = this.list().find((s) => s.id === result.screen.id && this.fileOf(s) !== file);
      if (clash || idClash) {
        this.problemsByFile.set(file, {
          file: path.relative(path.dirname(this.schemaDir), file),
          path: clash ? '/resource/name' : '/id',
          message: clash
            ? `resource "${clash.resource.name}" already belongs to screen ${clash.id}`
            : `screen id "${result.screen.id}" is taken`,
        });
        continue;
      }
      const before = this.byFile.get(file);
      if (JSON.stringify(before) !== JSON.stringify(result.screen)) {
        changed.push(file);
        ids.push(result.screen.id);
        if (before && before.id !== result.screen.id) ids.push(before.id);
      }
      this.byFile.set(file, result.screen);
    }
    this.dropBrokenViews(changed, ids);
    for (const problem of this.problemsByFile.values()) this.emit('problem', problem);
    this.announce(changed, ids);
    return changed;
  }

  /**
   * A screen whose link to another breaks stops serving, with its problem named: a view whose owner is
   * gone or no longer has its fields, a copied field whose source is.
   */
  private dropBrokenViews(changed: string[], ids: string[]): void {
    for (const [file, screen] of [...this.byFile]) {
      const first =
        viewProblems(screen, screen.resource.viewOf ? this.owner(screen.resource.viewOf) : undefined)[0] ??
        copyProblems(screen, (resource) => this.owner(resource))[0];
      if (!first) continue;
      this.byFile.delete(file);
      this.problemsByFile.set(file, { file: path.relative(path.dirname(this.schemaDir), file), ...first });
      changed.push(file);
      ids.push(screen.id);
    }
  }

  /** 'change' with the files, 'screens' with the ids of the screens that changed or went away. */
  private announce(files: string[], ids: string[]): void {
    if (files.length === 0) return;
    this.emit('change', files);
    this.emit('screens', [...new Set(ids)]);
  }

  private check(file: string): ReturnType<typeof checkScreenFile> {
    const result = checkScreenFile(file, this.schemaDir);
    if ('problem' in result || !this.routeCheck) return result;
    const first = commandProblems(result.screen, this.routeCheck)[0];
    return first ? { problem: { file: path.relative(path.dirname(this.schemaDir), file), ...first } } : result;
  }

  /**
   * Calls on the records of the screens wait for `work` (a new screen's storage being made): a screen is
   * served as soon as its file is read, and a first record written before its storage exists would be
   * moved under a query of the same moment, which could miss it.
   */
  holdRecordsUntil(work: Promise<unknown>): void {
    this.recordsHeld = work.catch(() => undefined);
  }

  /** Settles when the records of every screen served can be read and written. */
  recordsReady(): Promise<unknown> {
    return this.recordsHeld;
  }

  /** Follows the directory; several writes in a row are read once. */
  watch(): void {
    if (this.watcher || !existsSync(this.screensDir)) return;
    this.watcher = watch(this.screensDir, () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.reload(), 100);
    });
  }

  close(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  list(): ScreenSchema[] {
    return [...this.byFile.values()];
  }

  get(id: string): ScreenSchema | undefined {
    return this.list().find((s) => s.id === id);
  }

  byResource(name: string): ScreenSchema | undefined {
    return this.list().find((s) => s.resource.name === name);
  }

  /** The screen that owns a resource's records (never a view of them). */
  owner(name: string): ScreenSchema | undefined {
    return this.list().find((s) => s.resource.name === name && !s.resource.viewOf);
  }

  /** The screen whose records a screen shows: its owner for a view, else itself. */
  storageOf(screen: ScreenSchema): ScreenSchema | undefined {
    return screen.resource.viewOf ? this.owner(screen.resource.viewOf) : screen;
  }

  /** Every view of a resource, for rules that must hold whichever screen writes. */
  viewsOf(name: string): ScreenSchema[] {
    return this.list().filter((s) => s.resource.viewOf === name);
  }

  problems(): ScreenProblem[] {
    return [...this.problemsByFile.values()];
  }

  private fileOf(screen: ScreenSchema): string | undefined {
    for (const [file, s] of this.byFile) if (s === screen) return file;
    return undefined;
  }
}
