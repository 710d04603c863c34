import type { ResourceRecords } from '../../../shared/generated/resources.js';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import type { Queryable } from '../db/database.js';
import { ApiError, conflict } from '../http/envelope.js';
import type { ScreenRegistry } from '../screens/registry.js';
import {
  deleteByIds,
  deleteRecords,
  findRecords,
  getRecord,
  highestNumber,
  nextNumber,
  insertRecord,
  listRecords,
  locateRecord,
  lockScope,
  recordsByIds,
  titlesOf,
  lockRecord,
  updateRecord,
  type StoredRecord,
  type Where,
} from './repository.js';

export type ResourceName = keyof ResourceRecords;

/** A stored row of a resource, its document typed by the resource's generated record type. */
export interface Stored<N extends ResourceName> extends Omit<StoredRecord, 'data'> {
  data: ResourceRecords[N];
}

/** Conditions on fields of a resource: a value, any of a list of values, or null for "not set". */
export type WhereOf<N extends ResourceName> = { [K in keyof ResourceRecords[N] & string]?: Where[string] };

export interface FindOptions<N extends ResourceName> {
  orderBy?: keyof ResourceRecords[N] & string;
  order?: 'asc' | 'desc';
  limit?: number;
}

const typed = <N extends ResourceName>(row: StoredRecord | undefined) => row as unknown as Stored<N> | undefined;

/**
 * Records of the generic resource as a capability reads and writes them for itself (a handover's lines,
 * a QC run's neighbours, a barcode rule's counter), typed by the generated record types. These writes
 * are the capability's own bookkeeping: they bypass the screen's permissions and hooks, and the
 * capability logs them as part of the step it performs. What a user writes goes through ResourceService.
 */
export class RecordStore {
  constructor(private readonly screens: ScreenRegistry) {}

  /** A resource's screen; one the server's own code names must exist (a broken schema file is a server fault). */
  screen(resource: ResourceName): ScreenSchema {
    const screen = this.screens.byResource(resource);
    if (!screen) throw new ApiError(500, 'common.serverError');
    return screen;
  }

  async get<N extends ResourceName>(
    db: Queryable,
    resource: N,
    orgId: number,
    id: unknown,
  ): Promise<Stored<N> | undefined> {
    if (typeof id !== 'number' || !Number.isInteger(id)) return undefined;
    return typed<N>(await getRecord(db, this.screen(resource), orgId, id));
  }

  /**
   * A row by id whatever its organisation, for a caller who must first learn whose it is before deciding
   * whether they may read it (a form page another lab shares).
   */
  async locate<N extends ResourceName>(db: Queryable, resource: N, id: number): Promise<Stored<N> | undefined> {
    return typed<N>(await locateRecord(db, resource, id));
  }

  /** The organisation's rows among these ids, in the order asked. */
  async byIds<N extends ResourceName>(
    db: Queryable,
    resource: N,
    orgId: number,
    ids: readonly number[],
  ): Promise<Stored<N>[]> {
    const rows = await recordsByIds(db, this.screen(resource), orgId, ids);
    return ids.flatMap((id) => rows.filter((r) => r.id === id)) as unknown as Stored<N>[];
  }

  /** Rows matching every condition, in the order asked (id otherwise). */
  async find<N extends ResourceName>(
    db: Queryable,
    resource: N,
    orgId: number,
    where: WhereOf<N> = {},
    options: FindOptions<N> = {},
  ): Promise<Stored<N>[]> {
    const rows = await findRecords(db, this.screen(resource), orgId, where as Where, options);
    return rows as unknown as Stored<N>[];
  }

  /** Rows of a resource known only at run time (every screen that keeps files beside a barcode), untyped. */
  findIn(db: Queryable, screen: ScreenSchema, orgId: number, where: Where): Promise<StoredRecord[]> {
    return findRecords(db, screen, orgId, where);
  }

  /**
   * Rows as a list filters them (field filters and their From / To ranges, as the list's query string
   * names them), up to a limit, untyped: for a statistic over the rows of a period.
   */
  async filtered(
    db: Queryable,
    screen: ScreenSchema,
    orgId: number,
    params: Record<string, string | undefined>,
    limit: number,
  ) {
    return (await listRecords(db, screen, orgId, { page: 1, size: limit, params })).records;
  }

  /** The row, locked until the transaction ends (a counter two printers must not read at once). */
  async lock<N extends ResourceName>(
    db: Queryable,
    resource: N,
    orgId: number,
    id: number,
  ): Promise<Stored<N> | undefined> {
    return typed<N>(await lockRecord(db, this.screen(resource), orgId, id));
  }

  async insert<N extends ResourceName>(
    db: Queryable,
    resource: N,
    orgId: number,
    data: ResourceRecords[N],
    userId: number,
  ): Promise<Stored<N>> {
    return typed<N>(await insertRecord(db, this.screen(resource), orgId, data as Record<string, unknown>, userId))!;
  }

  /** A new version of a row read in this transaction; a row changed since is a conflict. */
  async update<N extends ResourceName>(
    db: Queryable,
    resource: N,
    current: Stored<N>,
    data: ResourceRecords[N],
    userId: number,
  ): Promise<Stored<N>> {
    const screen = this.screen(resource);
    const row = await updateRecord(
      db,
      screen,
      current.orgId,
      current.id,
      current.version,
      data as Record<string, unknown>,
      userId,
    );
    if (!row) throw conflict();
    return typed<N>(row)!;
  }

  /** Deletes the organisation's rows among these ids; answers how many. */
  removeIds(db: Queryable, resource: ResourceName, orgId: number, ids: readonly number[]): Promise<number> {
    return ids.length === 0 ? Promise.resolve(0) : deleteByIds(db, this.screen(resource), orgId, ids);
  }

  /** Titles of records (a field of theirs, name by default) by id, for showing references. */
  titles(
    db: Queryable,
    resource: ResourceName,
    orgId: number,
    ids: number[],
    labelField = 'name',
  ): Promise<Map<number, string>> {
    return titlesOf(db, resource, labelField, orgId, ids);
  }

  /** Deletes rows matching every condition; answers how many. */
  remove<N extends ResourceName>(db: Queryable, resource: N, orgId: number, where: WhereOf<N>): Promise<number> {
    return deleteRecords(db, this.screen(resource), orgId, where as Where);
  }

  /** One writer of the resource in the organisation at a time until the transaction ends (the generic writes' lock). */
  serialize(db: Queryable, resource: ResourceName, orgId: number): Promise<void> {
    return lockScope(db, this.screen(resource), orgId);
  }

  /** The highest number written after a prefix in a field (JJ20261124-0007 → 7), 0 when none: for numbering of the day. */
  lastNumber<N extends ResourceName>(
    db: Queryable,
    resource: N,
    orgId: number,
    field: keyof ResourceRecords[N] & string,
    prefix: string,
  ): Promise<number> {
    return highestNumber(db, this.screen(resource), orgId, field, prefix);
  }

  /** The next number of a field after a prefix (JJ20261124-0007 taken: JJ20261124-0008), zero-padded. */
  nextNumber<N extends ResourceName>(
    db: Queryable,
    resource: N,
    orgId: number,
    field: keyof ResourceRecords[N] & string,
    prefix: string,
    width?: number,
  ): Promise<string> {
    return nextNumber(db, this.screen(resource), orgId, field, prefix, width);
  }
}
