import { BASE_ORG_ID } from '../../../shared/access/can.js';
import type { Locale } from '../../../shared/i18n/messages.js';
import { labTypeWrites, screenAllows, type ScreenAction } from '../../../shared/screens/access.js';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import { isEmpty, matches, type RecordValues } from '../../../shared/screens/predicate.js';
import { screenMessage, type ScreenMessageKey } from '../../../shared/screens/messages.js';
import { refusal, transitionOf, type LifecycleDef, type TransitionDef } from '../../../shared/lifecycle/lifecycle.js';
import { hasRole } from '../../../shared/access/can.js';
import { givenInputs } from './givenInputs.js';
import { issuedValues, stampOf } from './issued.js';
import { copiedValues } from './copied.js';
import { validateRecord } from '../../../shared/screens/validate.js';
import { afterCommit } from '../db/afterCommit.js';
import type { Database, Queryable } from '../db/database.js';
import type { Caller } from '../identity/actor.js';
import { getOrganization } from '../identity/organizations.js';
import { once } from '../db/perTransaction.js';
import { confirmSignature } from '../identity/signature.js';
import { localDateTime } from '../../../shared/time.js';
import { badRequest, conflict, forbidden, InvalidRecord, notFound } from '../http/envelope.js';
import { appendLog, appendLogs, type AuditEntry } from '../audit/log.js';
import type { ScreenRegistry } from '../screens/registry.js';
import type { Kernel } from '../context.js';
import { flagCopies } from '../publicData/stores.js';
import { exportWorkbook, readSheet, type ImportRow } from './excel.js';
import type { HookRegistry, WriteContext } from './hooks.js';
import {
  checkWrite,
  fixedFieldErrors,
  present,
  withLabels,
  withLocalTimes,
  writableData,
  type ApiRecord,
} from './records.js';
import {
  deleteRecord,
  getRecord,
  insertRecord,
  listRecords,
  lockScope,
  recordsByIds,
  scopeOrg,
  updateRecord,
  type ListQuery,
  type StoredRecord,
} from './repository.js';
import { listQuery } from './query.js';
import type { Call, TableAdapter, TableRecord } from './tables.js';

/** How a caller reaches a resource: read the base organisation's public rows (basic), or run inside a transaction. */
export interface Reach {
  /** Spec 6: the basic flag of a public-platform route reads the base organisation's public data. */
  basic?: boolean;
  /** A transaction the write joins (a capability writing several records at once); else one of its own. */
  tx?: Queryable;
}

export type AnyRecord = ApiRecord | TableRecord;

export interface ListAnswer<R = AnyRecord> {
  records: R[];
  total: number;
  more?: true;
}

/** A row number in the words of its language, for a refusal of one row of an import. */
export const rowLabel = (n: number, locale: Locale, message: string) =>
  locale === 'zh-CN' ? `第${n}行：${message}` : `Row ${n}: ${message}`;

/**
 * The generic resource (issue 7) as an in-process service: list, read, create, update, delete,
 * export, import and named commands for every resource a screen schema names. The HTTP routes under
 * /api/resources answer through it, and so do the spec's own names for the same calls and any
 * capability acting for its caller: one path, with the schema's permissions, the organisation's rows,
 * the resource's rules (hooks), optimistic versions and the operation log, whoever calls.
 */
export class ResourceService {
  private readonly tables = new Map<string, TableAdapter>();

  constructor(
    private readonly db: Database,
    private readonly screens: ScreenRegistry,
    private readonly hooks: HookRegistry,
    private readonly kernel: () => Kernel,
  ) {}

  /** A capability's table resource answers this resource's calls from now on. */
  useTable(resource: string, adapter: TableAdapter): void {
    this.tables.set(resource, adapter);
  }

  /** The caller's lab's time zone (customConfig timeZone), else the server's. */
  private zoneOf(caller: Caller): string {
    return caller.actor.timeZone ?? this.kernel().config.timeZone;
  }

  isTable(resource: string): boolean {
    return this.tables.has(resource);
  }

  /** The screen of a resource when the caller's roles allow the action on it; 404 for an unknown resource. */
  screenFor(caller: Caller, resource: string, action: ScreenAction): ScreenSchema {
    const screen = this.screens.byResource(resource);
    if (!screen) throw notFound();
    if (!screenAllows(screen, action, caller.actor.roles)) throw forbidden();
    return this.stored(screen);
  }

  /**
   * A screen as its calls store records: a view keeps its own fields, permissions and condition, and
   * takes its owner's resource and lifecycle, so its rows, rules, log and history are the owner's.
   */
  private stored(screen: ScreenSchema): ScreenSchema {
    const { viewOf, where } = screen.resource;
    if (!viewOf) return screen;
    const owner = this.screens.owner(viewOf);
    if (!owner) throw notFound();
    return { ...screen, resource: { ...owner.resource, viewOf, where } };
  }

  /**
   * What a body says of a screen's own fields: a view's form sends back the whole record it read, whose
   * other fields are not the view's to write (they stay as stored) and so are no unknown fields either.
   */
  private ownValues(screen: ScreenSchema, body: RecordValues): RecordValues {
    const owner = screen.resource.viewOf ? this.screens.owner(screen.resource.name) : undefined;
    if (!owner) return body;
    const mine = (key: string) => screen.fields.some((f) => f.key === key);
    const theirs = (key: string) => owner.fields.some((f) => f.key === key) && !mine(key);
    return Object.fromEntries(Object.entries(body).filter(([key]) => !theirs(key)));
  }

  /** A stored row the screen reaches: of the organisation, and meeting a view's condition. */
  private async reachable(db: Queryable, call: Call, orgId: number, id: number): Promise<StoredRecord | undefined> {
    const row = await getRecord(db, call.screen, orgId, id);
    return row && matches(call.screen.resource.where, row.data) ? row : undefined;
  }

  /** Writes need the lab type the schema names too (permissions.writeLabTypes), when it names any. */
  private async checkLabType(screen: ScreenSchema, caller: Caller): Promise<void> {
    if (!screen.permissions?.writeLabTypes) return;
    const org = await getOrganization(this.db, caller.actor.orgId);
    if (!org || !labTypeWrites(screen, org.labType)) throw forbidden();
  }

  /** Whose rows a read answers: the caller's organisation, or the base organisation's public data. */
  private readOrg(screen: ScreenSchema, caller: Caller, reach: Reach): number {
    return reach.basic && screen.resource.publicData ? BASE_ORG_ID : caller.actor.orgId;
  }

  private async access(caller: Caller, resource: string, action: ScreenAction, reach: Reach = {}): Promise<Call> {
    const screen = this.screenFor(caller, resource, action);
    if (action !== 'read' && action !== 'export') await this.checkLabType(screen, caller);
    return { ...caller, screen, basic: reach.basic === true };
  }

  private table(call: Call): TableAdapter | undefined {
    return this.tables.get(call.screen.resource.name);
  }

  /**
   * Runs a write in its own transaction, or in the caller's (a capability writing several records at
   * once). What the rules ask to do once it is committed (a process started for a new specimen, news to
   * open dashboards) waits for the commit of the transaction the write is in, whoever began it.
   */
  private inTransaction<T>(reach: Reach, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return reach.tx ? fn(reach.tx) : this.db.transaction(fn);
  }

  private writeContext(tx: Queryable, call: Call, via: WriteContext['via'], current?: StoredRecord): WriteContext {
    const { actor, locale, ip, screen } = call;
    return { tx, kernel: this.kernel(), screen, actor, locale, ip, via, current, afterCommit };
  }

  async list(
    caller: Caller,
    resource: string,
    query: Record<string, string | undefined>,
    reach: Reach & { countUpTo?: number } = {},
  ): Promise<ListAnswer> {
    const call = await this.access(caller, resource, 'read', reach);
    const table = this.table(call);
    const q = listQuery(call.screen, query);
    if (table) return table.list(call, query, { page: q.page, size: q.size });
    const orgId = this.readOrg(call.screen, caller, reach);
    const db = reach.tx ?? this.db;
    const { records, total, more } = await listRecords(db, call.screen, orgId, {
      ...q,
      countUpTo: reach.countUpTo,
      fixed: call.screen.resource.where,
    });
    return { records: await withLabels(db, call.screen, orgId, records.map(present)), total, ...(more && { more }) };
  }

  async get(caller: Caller, resource: string, id: number, reach: Reach = {}): Promise<AnyRecord> {
    const call = await this.access(caller, resource, 'read', reach);
    const table = this.table(call);
    const found = table ? await table.get(call, id) : await this.getStored(call, id, reach);
    if (!found) throw notFound();
    return found;
  }

  private async getStored(call: Call, id: number, reach: Reach): Promise<ApiRecord | undefined> {
    const orgId = this.readOrg(call.screen, call, reach);
    const db = reach.tx ?? this.db;
    const row = await this.reachable(db, call, orgId, id);
    return row && (await withLabels(db, call.screen, orgId, [present(row)]))[0];
  }

  private valid(call: Call, data: RecordValues): RecordValues {
    const errors = validateRecord(call.screen, data, call.locale);
    if (errors.length > 0) throw new InvalidRecord(errors);
    return data;
  }

  async create(caller: Caller, resource: string, input: RecordValues, reach: Reach = {}): Promise<AnyRecord> {
    const call = await this.access(caller, resource, 'create');
    const body = withLocalTimes(call.screen, input, this.zoneOf(caller));
    const table = this.table(call);
    if (table) {
      if (!table.create) throw notFound();
      return table.create(call, this.valid(call, body));
    }
    const own = writableData(call.screen, this.ownValues(call.screen, body));
    const row = await this.inTransaction(reach, async (tx) => {
      await lockScope(tx, call.screen, caller.actor.orgId);
      const errors = await checkWrite(tx, call.screen, caller.actor.orgId, own, 0, caller.locale);
      if (errors.length > 0) throw new InvalidRecord(errors);
      return this.insertChecked(tx, call, newData(call.screen, body, own, call.locale), 'create');
    });
    return present(row);
  }

  /**
   * A record a capability makes as part of the user's step (the blocks a grossing takes): in the step's
   * transaction, through the resource's rules, with its history and log entry; no screen permission is
   * asked, and the data is the server's own (it may start in a later state of the lifecycle).
   */
  async createFor(caller: Caller, resource: string, data: RecordValues, tx: Queryable): Promise<StoredRecord> {
    const call = this.systemCall(caller, resource);
    const lifecycle = call.screen.resource.lifecycle;
    return this.insertChecked(
      tx,
      call,
      { ...(lifecycle && { [lifecycle.field]: lifecycle.initial }), ...data },
      'create',
    );
  }

  /** Stores data that passed the schema's checks: the resource's rules first, then the row and its log entry. */
  private async insertChecked(tx: Queryable, call: Call, data: RecordValues, via: 'create' | 'import') {
    const write = this.writeContext(tx, call, via);
    const owner = this.ownerOf(call);
    const issued = await issuedValues(tx, owner, call.actor, this.kernel().now(), data);
    const copied = await this.copied(tx, call, issued);
    const stored = await this.hooks.beforeWrite(write, copied);
    const row = await insertRecord(tx, call.screen, call.actor.orgId, stored, call.actor.id);
    await this.hooks.afterWrite(write, row);
    const lifecycle = call.screen.resource.lifecycle;
    if (lifecycle)
      await this.recordEvents(tx, call, [
        { current: row, event: { name: 'create', toState: String(row.data[lifecycle.field] ?? lifecycle.initial) } },
      ]);
    await appendLog(tx, call.actor, {
      resource: call.screen.resource.name,
      recordId: row.id,
      action: via,
      after: row.data,
      ip: call.ip,
    });
    return row;
  }

  async update(
    caller: Caller,
    resource: string,
    id: number,
    input: RecordValues & { version?: unknown },
    reach: Reach = {},
  ): Promise<AnyRecord> {
    const call = await this.access(caller, resource, 'update');
    const body = withLocalTimes(call.screen, input, this.zoneOf(caller)) as typeof input;
    const table = this.table(call);
    if (table) return this.updateTable(call, table, id, body);
    const updated = await this.inTransaction(reach, async (tx) => {
      await lockScope(tx, call.screen, caller.actor.orgId);
      const current = await this.reachable(tx, call, caller.actor.orgId, id);
      if (!current) throw notFound();
      // The version the user edited must still be the stored one: nobody's change is overwritten.
      if (typeof body.version !== 'number' || body.version !== current.version) throw conflict();
      this.holdEditable(call, current, caller.locale);
      const fixed = fixedFieldErrors(call.screen, body, caller.locale);
      if (fixed.length > 0) throw new InvalidRecord(fixed);
      // A view writes its own fields; the record's others stay as they are.
      const own = writableData(call.screen, this.ownValues(call.screen, body), current.data);
      const errors = await checkWrite(tx, call.screen, caller.actor.orgId, own, current.id, caller.locale);
      if (errors.length > 0) throw new InvalidRecord(errors);
      const merged = call.screen.resource.viewOf ? { ...current.data, ...own } : own;
      const data = holdState(call.screen, body, merged, call.locale, current.data);
      return this.rewrite(tx, call, current, await this.copied(tx, call, data), 'update');
    });
    return present(updated);
  }

  /** The screen that owns the call's records: its lifecycle, stamps and copies rule them, whichever view is used. */
  private ownerOf(call: Call): ScreenSchema {
    return this.screens.owner(call.screen.resource.name) ?? call.screen;
  }

  /** The record's values with what its schema copies from other records (copied.ts). */
  private copied(tx: Queryable, call: Call, data: RecordValues): Promise<RecordValues> {
    return copiedValues(tx, (r) => this.screens.owner(r), this.ownerOf(call), call.actor.orgId, data, call.locale);
  }

  /** Writes a new version of a stored row through the resource's rules, logged with before and after. */
  private async rewrite(
    tx: Queryable,
    call: Call,
    current: StoredRecord,
    data: RecordValues,
    via: 'update' | 'command',
    action: string = via,
    log?: AuditEntry[],
  ): Promise<StoredRecord> {
    const write = {
      ...this.writeContext(tx, call, via, current),
      ...(action.startsWith('transition:') && { transition: action.slice('transition:'.length) }),
    };
    const stored = await this.hooks.beforeWrite(write, data);
    const row = await updateRecord(
      tx,
      call.screen,
      call.actor.orgId,
      current.id,
      current.version,
      stored,
      call.actor.id,
    );
    if (!row) throw conflict();
    await this.hooks.afterWrite(write, row);
    const entry = {
      resource: call.screen.resource.name,
      recordId: row.id,
      action,
      before: current.data,
      after: row.data,
      ip: call.ip,
    };
    // A batch logs its records together, once they are all written.
    if (log) log.push(entry);
    else await appendLog(tx, call.actor, entry);
    if (row.orgId === BASE_ORG_ID) await flagCopies(tx, call.screen, row.id);
    return row;
  }

  private async updateTable(call: Call, table: TableAdapter, id: number, body: RecordValues): Promise<TableRecord> {
    if (!table.update) throw notFound();
    const current = await table.get(call, id);
    if (!current) throw notFound();
    const own = (record: RecordValues) =>
      Object.fromEntries(Object.entries(record).filter(([k]) => !['id', 'version', 'labels'].includes(k)));
    const merged = { ...own(current), ...own(body) };
    // Rules see the whole record (read-only values too); only the fields the user writes go on.
    const known = Object.fromEntries(
      Object.entries(merged).filter(([k]) => call.screen.fields.some((f) => f.key === k)),
    );
    this.valid(call, known);
    const data = Object.fromEntries(
      Object.entries(known).filter(([k]) => !call.screen.fields.find((f) => f.key === k)?.readOnly),
    );
    return table.update(call, current, { ...data, version: body.version });
  }

  /** Deletes rows of the caller's organisation, all or none; answers their ids. */
  async remove(caller: Caller, resource: string, ids: number[], reach: Reach = {}): Promise<number[]> {
    const call = await this.access(caller, resource, 'delete');
    const table = this.table(call);
    if (table) {
      if (!table.remove) throw notFound();
      for (const id of ids) {
        const current = await table.get(call, id);
        if (!current) throw notFound();
        await table.remove(call, current);
      }
      return ids;
    }
    const name = call.screen.resource.name;
    return this.inTransaction(reach, async (tx) => {
      for (const id of ids) {
        if (this.hooks.readsBeforeDelete(name)) {
          await lockScope(tx, call.screen, caller.actor.orgId);
          const current = await this.reachable(tx, call, caller.actor.orgId, id);
          if (!current) throw notFound();
          await this.hooks.beforeDelete({ ...this.writeContext(tx, call, 'delete', current), current });
        }
        if (call.screen.resource.where && !(await this.reachable(tx, call, caller.actor.orgId, id))) throw notFound();
        const row = await deleteRecord(tx, call.screen, caller.actor.orgId, id);
        if (!row) throw notFound();
        await appendLog(tx, caller.actor, {
          resource: name,
          recordId: id,
          action: 'delete',
          before: row.data,
          ip: caller.ip,
        });
      }
      return ids;
    });
  }

  /** The filtered, sorted list as an .xlsx workbook, with the file name the browser saves it under. */
  async exportWorkbook(
    caller: Caller,
    resource: string,
    query: Record<string, string | undefined>,
    reach: Reach = {},
  ): Promise<{ buffer: Buffer; fileName: string }> {
    const call = await this.access(caller, resource, 'export', reach);
    // A table resource's rows are not in the generic table: an export of it would be empty, so there is none.
    if (this.table(call)) throw notFound();
    const orgId = this.readOrg(call.screen, caller, reach);
    const { records } = await listRecords(this.db, call.screen, orgId, {
      ...listQuery(call.screen, query),
      page: 1,
      size: 100_000,
      fixed: call.screen.resource.where,
    });
    const rows = await withLabels(this.db, call.screen, orgId, records.map(present));
    const buffer = await exportWorkbook(call.screen, rows, caller.locale);
    return { buffer, fileName: `${call.screen.title[caller.locale]}.xlsx` };
  }

  /** Imports a sheet all or nothing; answers how many rows were imported. */
  async importWorkbook(caller: Caller, resource: string, buffer: Buffer): Promise<number> {
    const call = await this.access(caller, resource, 'import');
    if (this.table(call)) throw notFound();
    return this.inTransaction({}, async (tx) => {
      await lockScope(tx, call.screen, caller.actor.orgId);
      const orgId = scopeOrg(call.screen, caller.actor.orgId);
      const rows = await readSheet(tx, call.screen, orgId, buffer, caller.locale);
      return (await this.importChecked(tx, call, rows)).length;
    });
  }

  /**
   * Imports rows (from a sheet, or a list a spec call sends) into a resource, all or nothing, inside
   * the caller's transaction: each checked like a form, unique values once in the batch.
   */
  async importRows(caller: Caller, resource: string, rows: ImportRow[], tx: Queryable): Promise<StoredRecord[]> {
    const call = await this.access(caller, resource, 'import');
    if (this.table(call)) throw notFound();
    await lockScope(tx, call.screen, caller.actor.orgId);
    return this.importChecked(tx, call, rows);
  }

  /** One bad row refuses the lot, with each problem named by its row. */
  private async importChecked(tx: Queryable, call: Call, rows: ImportRow[]): Promise<StoredRecord[]> {
    const { screen, locale } = call;
    const errors: { field: string; message: string }[] = [];
    const records: { row: number; data: RecordValues }[] = [];
    const seen = new Map<string, Map<string, number>>();
    for (const { row: n, body } of rows) {
      const data = writableData(screen, body);
      for (const e of await checkWrite(tx, screen, call.actor.orgId, data, 0, locale))
        errors.push({ field: e.field, message: rowLabel(n, locale, e.message) });
      for (const field of screen.fields.filter((f) => f.unique && !isEmpty(data[f.key]))) {
        const values = seen.get(field.key) ?? new Map<string, number>();
        const value = String(data[field.key]);
        const first = values.get(value);
        if (first !== undefined) {
          const message = screenMessage('field.unique', locale, { label: field.label[locale], value });
          errors.push({ field: field.key, message: rowLabel(n, locale, `${message} (${first})`) });
        } else values.set(value, n);
        seen.set(field.key, values);
      }
      records.push({ row: n, data: newData(screen, body, data, locale) });
    }
    if (errors.length > 0) throw new InvalidRecord(errors.slice(0, 200));
    const created: StoredRecord[] = [];
    for (const { row, data } of records) {
      // A rule of the resource refuses the whole file, naming the row (rows before it are in the same transaction).
      const inserted = await this.insertChecked(tx, call, data, 'import').catch((e: unknown) => {
        throw e instanceof InvalidRecord
          ? new InvalidRecord(e.errors.map((x) => ({ ...x, message: rowLabel(row, locale, x.message) })))
          : e;
      });
      created.push(inserted);
    }
    return created;
  }

  /**
   * Moves a record along its lifecycle: refused (and nothing written) when the transition does not
   * leave the record's state, when the user's roles may not run it, or when a field it requires is
   * empty; otherwise the required fields, the server's stamps (who, where, when) and the new state are
   * written through the resource's rules, and the step becomes an event of the record's history.
   */
  async transition(caller: Caller, resource: string, id: number, name: string, run: TransitionRun = {}) {
    const [row] = await this.transitionMany(caller, resource, [id], name, run);
    return row!;
  }

  /**
   * One step for several records at once (a rack of tubes received, a report's results published):
   * all of them or none, each checked as a single step is. Read, locked, recorded in their histories
   * and logged together; each record still goes through the resource's rules in turn, in the order
   * given, so a rule sees the records before it already moved, as it would step by step.
   */
  async transitionMany(caller: Caller, resource: string, ids: number[], name: string, run: TransitionRun = {}) {
    const { call, lifecycle, transition } = await this.stepOf(caller, resource, name, run);
    const { locale } = caller;
    const orgId = caller.actor.orgId;
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) throw badRequest('publicData.noRows');
    let signature: Record<string, unknown> | undefined;
    if (!run.system && transition.signature) {
      // The states are checked before the password is asked of the signer, and again under the write's
      // lock. A record the caller cannot reach (another lab's) is not found before any password is asked.
      this.holdStates(call, lifecycle, transition, await this.reachableAll(this.db, call, orgId, wanted), locale);
      signature = await this.sign(caller, transition.label, run);
    }
    return this.inTransaction(run, async (tx) => {
      await lockScope(tx, call.screen, orgId);
      const rows = await this.reachableAll(tx, call, orgId, wanted);
      if (run.version !== undefined && (rows.length !== 1 || run.version !== rows[0]!.version)) throw conflict();
      const froms = this.holdStates(call, lifecycle, transition, rows, locale, run.refusalOf);
      const named = <T>(id: number, step: () => Promise<T>) =>
        run.refusalOf ? step().catch((e: unknown) => Promise.reject(renamed(e, (m) => run.refusalOf!(id, m)))) : step();
      const org = await this.organizationOf(tx, orgId);
      const requires = transition.requires ?? [];
      const steps = [];
      for (const [i, current] of rows.entries()) {
        const input = { ...run.input, ...run.inputs?.get(current.id) };
        const required = await named(current.id, async () => this.requiredInput(call, requires, input));
        const details = { ...pick(input, requires), ...run.details, ...signature };
        const data = { ...current.data, ...(run.system && run.set), ...required };
        for (const [field, what] of Object.entries(transition.stamp ?? {}))
          data[field] = stampOf(what, caller.actor, org?.name ?? '', this.kernel().now());
        const from = froms[i]!;
        const to = (transition.back && (await this.stateBefore(tx, call, current, from))) || transition.to;
        data[lifecycle.field] = to;
        steps.push({ current, data, event: { name, fromState: from, toState: to, details } });
      }
      // The steps' events first: the resource's rules, run by the rewrite, may take further steps (the
      // last result audited reports its specimen), whose events must come after these in the history.
      await this.recordEvents(tx, call, steps);
      const log: AuditEntry[] = [];
      const written: StoredRecord[] = [];
      for (const step of steps)
        written.push(
          await named(step.current.id, () =>
            this.rewrite(tx, call, step.current, step.data, 'command', `transition:${name}`, log),
          ),
        );
      await appendLogs(tx, call.actor, log);
      return written;
    });
  }

  /** The screen, lifecycle and transition a step names, when the caller may take it. */
  private async stepOf(caller: Caller, resource: string, name: string, run: TransitionRun) {
    const call = run.system ? this.systemCall(caller, resource) : await this.access(caller, resource, 'update');
    const lifecycle = call.screen.resource.lifecycle;
    const transition = lifecycle && transitionOf(lifecycle, name);
    const { locale } = caller;
    if (!lifecycle || !transition) refuseStep('lifecycle.noTransition', locale, { action: name });
    if (!run.system && transition.system)
      refuseStep('lifecycle.systemOnly', locale, { action: transition.label[locale] });
    if (!run.system && transition.roles && !hasRole(caller.actor, transition.roles)) throw forbidden();
    return { call, lifecycle, transition };
  }

  /** The stored rows of these ids the screen reaches, in the order asked; not found when any is not. */
  private async reachableAll(db: Queryable, call: Call, orgId: number, ids: number[]): Promise<StoredRecord[]> {
    const found =
      ids.length === 1
        ? [await this.reachable(db, call, orgId, ids[0]!)]
        : await recordsByIds(db, call.screen, orgId, ids).then((rows) => {
            const byId = new Map(rows.map((r) => [r.id, r]));
            return ids.map((id) => byId.get(id));
          });
    return found.map((row) => {
      if (!row || !matches(call.screen.resource.where, row.data)) throw notFound();
      return row;
    });
  }

  /** Each record's state, when the transition leaves them all; else refused naming the first that is not (in a batch, by its title or as `refusalOf` names it). */
  private holdStates(
    call: Call,
    lifecycle: LifecycleDef,
    transition: TransitionDef,
    rows: StoredRecord[],
    locale: Locale,
    refusalOf?: TransitionRun['refusalOf'],
  ): string[] {
    return rows.map((row) => {
      try {
        return this.holdsState(call, lifecycle, transition, row, locale);
      } catch (e) {
        if (refusalOf) throw renamed(e, (m) => refusalOf(row.id, m));
        if (rows.length === 1) throw e;
        const title = String(row.data[call.screen.resource.titleField ?? ''] ?? row.id);
        const colon = locale === 'zh-CN' ? '：' : ': ';
        throw renamed(e, (m) => `${title}${colon}${m}`);
      }
    });
  }

  /** A record past the states its lifecycle lets be edited (a specimen being tested) is refused an edit. */
  private holdEditable(call: Call, current: StoredRecord, locale: Locale): void {
    const lifecycle = call.screen.resource.lifecycle;
    const state = String(current.data[lifecycle?.field ?? ''] ?? '');
    if (!lifecycle?.editableIn || lifecycle.editableIn.includes(state)) return;
    const owner = this.ownerOf(call);
    refuseStep('lifecycle.notEditable', locale, { state: stateLabel(owner, lifecycle.field, state, locale) });
  }

  /** The record's state, when the transition leaves it; else refused naming the state. */
  private holdsState(
    call: Call,
    lifecycle: LifecycleDef,
    transition: TransitionDef,
    row: StoredRecord,
    locale: Locale,
  ) {
    const from = String(row.data[lifecycle.field] ?? '');
    if (refusal(transition, from)) {
      const owner = this.ownerOf(call);
      const state = stateLabel(owner, lifecycle.field, from, locale);
      refuseStep('lifecycle.wrongState', locale, { action: transition.label[locale], state });
    }
    // A second person checks the first one's work: the step is not theirs to take.
    const earlier = transition.notBy && row.data[transition.notBy];
    if (earlier && (earlier === call.actor.userAccount || earlier === call.actor.userName)) {
      const owner = this.ownerOf(call);
      const who = owner.fields.find((f) => f.key === transition.notBy)?.label[locale] ?? transition.notBy!;
      refuseStep('lifecycle.notBy', locale, { action: transition.label[locale], who });
    }
    return from;
  }

  /**
   * A transition that is an electronic signature: the password given again is checked (a wrong one
   * counts towards the lock), and the history keeps the signer, the time and the meaning; the password
   * itself is never stored.
   */
  private async sign(caller: Caller, meaning: Record<Locale, string>, run: TransitionRun) {
    const password = run.input?.password;
    if (typeof password !== 'string' || password === '') {
      const label = screenMessage('signature.password', caller.locale, {});
      throw new InvalidRecord([
        { field: 'password', message: screenMessage('field.required', caller.locale, { label }) },
      ]);
    }
    await confirmSignature(this.kernel(), caller, meaning['zh-CN'], password);
    const { userName, userAccount } = caller.actor;
    const at = localDateTime(this.kernel().now(), caller.actor.timeZone);
    return { signature: { signer: userName, account: userAccount, meaning: meaning[caller.locale], at } };
  }

  /** Where a step undone (back) returns the record: the state before it, if that is a state of the lifecycle. */
  private async stateBefore(tx: Queryable, call: Call, current: StoredRecord, state: string) {
    const owner = this.ownerOf(call);
    const before = await this.kernel().events.stateBefore(tx, owner.resource.name, current.orgId, current.id, state);
    const field = owner.fields.find((f) => f.key === owner.resource.lifecycle?.field);
    return field?.options?.some((o) => o.value === before) ? before : undefined;
  }

  /**
   * The actor's organisation (its name is stamped on steps and kept in their history), read once per
   * transaction: a worksheet or a signature takes hundreds of steps in one.
   */
  private organizationOf(tx: Queryable, orgId: number) {
    return once(tx, `organization:${orgId}`, () => getOrganization(tx, orgId));
  }

  /** Steps of records' lifecycles into their histories, with who did them and in which organisation. */
  private async recordEvents(
    tx: Queryable,
    call: Call,
    steps: {
      current: StoredRecord;
      event: { name: string; fromState?: string; toState: string; details?: Record<string, unknown> };
    }[],
  ): Promise<void> {
    const orgName = (await this.organizationOf(tx, call.actor.orgId))?.name;
    const at = this.kernel().now();
    await this.kernel().events.appendMany(
      tx,
      steps.map(({ current, event }) => ({
        ...event,
        resource: call.screen.resource.name,
        orgId: current.orgId,
        recordId: current.id,
        kind: 'transition',
        actor: call.actor,
        orgName,
        at,
      })),
    );
  }

  /** A record's history, to whoever may read it through this screen. */
  async history(caller: Caller, resource: string, id: number) {
    const call = await this.access(caller, resource, 'read');
    const row = await this.reachable(this.db, call, caller.actor.orgId, id);
    if (!row) throw notFound();
    const events = await this.kernel().events.list(this.db, call.screen.resource.name, row.orgId, row.id);
    // Named in the caller's language as the lifecycle names them: the transition, and the states.
    const owner = this.ownerOf(call);
    const lifecycle = owner.resource.lifecycle;
    const state = (value: string | null) =>
      value && lifecycle && stateLabel(owner, lifecycle.field, value, caller.locale);
    const given = await givenInputs(this.db, owner, row.orgId, events, caller.locale);
    return events.map((e) => ({
      ...e,
      label: (e.kind === 'transition' && lifecycle && transitionOf(lifecycle, e.name)?.label[caller.locale]) || e.name,
      fromLabel: state(e.fromState) || e.fromState,
      toLabel: state(e.toState) || e.toState,
      ...(given.has(e.id) && { inputs: given.get(e.id) }),
    }));
  }

  /** A capability's step on a resource by name: the owner's screen, no screen permission asked. */
  private systemCall(caller: Caller, resource: string): Call {
    const screen = this.screens.owner(resource);
    if (!screen) throw notFound();
    return { ...caller, screen, basic: false };
  }

  /** The fields a transition requires, each given (else refused with the field's own required message). */
  private requiredInput(call: Call, keys: string[], input: RecordValues): RecordValues {
    const owner = this.ownerOf(call);
    const errors = keys
      .filter((key) => isEmpty(input[key]))
      .map((key) => {
        const label = owner.fields.find((f) => f.key === key)?.label[call.locale] ?? key;
        return { field: key, message: screenMessage('field.required', call.locale, { label }) };
      });
    if (errors.length > 0) throw new InvalidRecord(errors);
    return pick(input, keys);
  }

  /**
   * Runs a named command on one record of the caller's organisation inside a transaction: `decide`
   * answers the fields the command sets (the schema's read-only ones), the record is written with a
   * new version through the resource's rules, and the change goes to the operation log under the
   * command's name, like any other write.
   */
  async command(
    caller: Caller,
    resource: string,
    id: number,
    name: string,
    decide: (tx: Queryable, record: StoredRecord) => Promise<RecordValues>,
    options: { action?: ScreenAction; tx?: Queryable } = {},
  ): Promise<StoredRecord> {
    const call = await this.access(caller, resource, options.action ?? 'update');
    return this.inTransaction(options, async (tx) => {
      const current = await this.reachable(tx, call, caller.actor.orgId, id);
      if (!current) throw notFound();
      const changes = await decide(tx, current);
      // A command of a capability moves a record's state only through a transition, never by setting it.
      holdState(call.screen, changes, changes, caller.locale, current.data);
      return this.rewrite(tx, call, current, { ...current.data, ...changes }, 'command', name);
    });
  }
}

/** How a transition is run: by hand through its screen, or by a capability for the user doing its step. */
export interface TransitionRun {
  /** Fields the transition requires (a reason), and any of its fields the step gives. */
  input?: RecordValues;
  /** In a batch, each record's own fields (a worksheet's values), over the input they share. */
  inputs?: ReadonlyMap<number, RecordValues>;
  /** The version the user saw, when a person runs it from a screen. */
  version?: number;
  /** A capability's own step (a handover sent, a task completed): no screen permission is asked of the user. */
  system?: boolean;
  /** Fields the capability's step sets (the group that received a specimen): server-known, never typed. */
  set?: RecordValues;
  /** What the history keeps beside the transition (the handover's number, the task's name). */
  details?: Record<string, unknown>;
  /**
   * In a batch, how a refusal names the record it came from (a file's row), whatever refuses it: its
   * state, its input or a rule. Without it only a state refusal is named, by the record's title.
   */
  refusalOf?: (id: number, message: string) => string;
  tx?: Queryable;
}

export type { ListQuery };

/** A refusal's messages named by the record it came from; any other failure as it is. */
const renamed = (e: unknown, name: (message: string) => string) =>
  e instanceof InvalidRecord ? new InvalidRecord(e.errors.map((x) => ({ ...x, message: name(x.message) }))) : e;

const pick = (values: RecordValues, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));

/**
 * A new record's data, once its own values passed the checks: the initial state of its lifecycle
 * (a body asking for another is refused), and for one made through a view, the view's condition met
 * (its eq comparisons fill their fields).
 */
function newData(screen: ScreenSchema, body: RecordValues, own: RecordValues, locale: Locale): RecordValues {
  const where = screen.resource.viewOf ? screen.resource.where : undefined;
  const fixed = (where && 'all' in where ? where.all : where ? [where] : []).flatMap((p) =>
    'field' in p && p.op === 'eq' ? [[p.field, p.value] as const] : [],
  );
  return holdState(screen, body, { ...own, ...Object.fromEntries(fixed) }, locale);
}

/** A step (a transition, an edit) refused by the lifecycle: 400 with the reason, nothing written. */
function refuseStep(key: ScreenMessageKey, locale: Locale, vars: Record<string, string>): never {
  throw new InvalidRecord([{ field: '', key: 'field.rule', message: screenMessage(key, locale, vars) }]);
}

/** A state by its option label in the user's language. */
function stateLabel(screen: ScreenSchema, field: string, state: string, locale: Locale): string {
  const option = screen.fields.find((f) => f.key === field)?.options?.find((o) => String(o.value) === state);
  return option?.label[locale] ?? state;
}

/**
 * The lifecycle field of a record: a new record starts in the initial state and an edit keeps the
 * stored one; a body that asks for another state is refused (only a transition changes it).
 */
function holdState(
  screen: ScreenSchema,
  body: RecordValues,
  data: RecordValues,
  locale: Locale,
  previous?: RecordValues,
): RecordValues {
  const lifecycle = screen.resource.lifecycle;
  if (!lifecycle) return data;
  const state = previous ? previous[lifecycle.field] : lifecycle.initial;
  const asked = body[lifecycle.field];
  if (!isEmpty(asked) && asked !== state) {
    const label = screen.fields.find((f) => f.key === lifecycle.field)?.label[locale] ?? lifecycle.field;
    throw new InvalidRecord([
      { field: lifecycle.field, message: screenMessage('lifecycle.byTransition', locale, { label }) },
    ]);
  }
  return { ...data, [lifecycle.field]: state };
}
