import type { Locale } from '../../../shared/i18n/messages.js';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import type { AuthUser } from '../identity/actor.js';
import type { Queryable } from '../db/database.js';
import type { Kernel } from '../context.js';
import type { StoredRecord } from './repository.js';

/** Where a generic write happens: its transaction, the screen, who writes, and the stored row it changes (none on create). */
export interface WriteContext {
  tx: Queryable;
  kernel: Kernel;
  screen: ScreenSchema;
  actor: AuthUser;
  locale: Locale;
  ip: string;
  /** How the write came: a form's save, a sheet's import, a named command. Hooks may treat them alike or not. */
  via: 'create' | 'update' | 'import' | 'command' | 'delete';
  current?: StoredRecord;
  /** The lifecycle transition a command write runs (record, receive, …): rules that belong to one step. */
  transition?: string;
  /** Runs a job once the write is committed (work with transactions of its own, such as starting a process). */
  afterCommit(job: () => Promise<void>): void;
}

/**
 * Rules of a resource that the schema cannot say (a specimen in one open handover at a time, a
 * confirmed record no longer editable), kept in the capability that owns them and run by the generic
 * resource inside each write's transaction, so no path around them exists. A hook refuses by throwing
 * InvalidRecord (nothing is written then).
 */
export interface ResourceHooks {
  /** Before a create or an update is stored: answers the data to store (it may fill server-kept fields). */
  beforeWrite?(ctx: WriteContext, data: RecordValues): Promise<RecordValues>;
  /** After the row is stored: rows that follow from it (in the same transaction). */
  afterWrite?(ctx: WriteContext, row: StoredRecord): Promise<void>;
  /** Before a row is deleted: may refuse, or remove the rows that belong to it. */
  beforeDelete?(ctx: WriteContext & { current: StoredRecord }): Promise<void>;
}

/** One capability's rules for one resource, with the place they take among other capabilities' rules. */
export interface HookRegistration {
  resource: string;
  hooks: ResourceHooks;
  /**
   * Lower runs first (default 100). Rules that refuse or fill fields come before those that react to
   * the stored row; equal orders run in the order the capabilities are listed in the app.
   */
  order?: number;
}

/**
 * Every capability's rules per resource, in their stated order. Several capabilities may add rules to
 * one resource (the specimen's lifecycle, its handover, its workflow): each runs, none replaces another.
 */
export class HookRegistry {
  private readonly byResource = new Map<string, { hooks: ResourceHooks; order: number }[]>();

  add(registration: HookRegistration): void {
    const list = this.byResource.get(registration.resource) ?? [];
    list.push({ hooks: registration.hooks, order: registration.order ?? 100 });
    // A stable sort keeps the capabilities' own order among equal orders.
    list.sort((a, b) => a.order - b.order);
    this.byResource.set(registration.resource, list);
  }

  private of(resource: string): ResourceHooks[] {
    return (this.byResource.get(resource) ?? []).map((r) => r.hooks);
  }

  has(resource: string): boolean {
    return this.of(resource).length > 0;
  }

  /** Each rule in turn takes the data the one before answered. */
  async beforeWrite(ctx: WriteContext, data: RecordValues): Promise<RecordValues> {
    let out = data;
    for (const hooks of this.of(ctx.screen.resource.name))
      if (hooks.beforeWrite) out = await hooks.beforeWrite(ctx, out);
    return out;
  }

  async afterWrite(ctx: WriteContext, row: StoredRecord): Promise<void> {
    for (const hooks of this.of(ctx.screen.resource.name)) await hooks.afterWrite?.(ctx, row);
  }

  async beforeDelete(ctx: WriteContext & { current: StoredRecord }): Promise<void> {
    for (const hooks of this.of(ctx.screen.resource.name)) await hooks.beforeDelete?.(ctx);
  }

  /** Whether a delete must read the row first (some rule looks at it). */
  readsBeforeDelete(resource: string): boolean {
    return this.of(resource).some((h) => h.beforeDelete);
  }
}
