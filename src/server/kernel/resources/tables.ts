import type { ScreenSchema } from '../../../shared/screens/fields.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import type { Caller } from '../identity/actor.js';
import type { Kernel } from '../context.js';
import type { PublicStore } from '../publicData/stores.js';

/**
 * A screen whose records live in their own table (users, roles, organisations, …) rather than in the
 * generic resource's: the same /api/resources/{name} contract, answered by an adapter the owning
 * capability gives. The generic resource still checks the schema's permissions and validation first.
 */
export type TableRecord = RecordValues & { id: number; version: number; labels?: Record<string, string | string[]> };

/** A call on a table resource: the caller, the screen, and whether it reads the base organisation's public rows. */
export interface Call extends Caller {
  screen: ScreenSchema;
  basic: boolean;
}

export interface TableAdapter {
  list(
    call: Call,
    query: Record<string, string | undefined>,
    page: { page: number; size: number },
  ): Promise<{ records: TableRecord[]; total: number }>;
  get(call: Call, id: number): Promise<TableRecord | undefined>;
  create?(call: Call, data: RecordValues): Promise<TableRecord>;
  update?(call: Call, current: TableRecord, data: RecordValues): Promise<TableRecord>;
  remove?(call: Call, current: TableRecord): Promise<void>;
}

/** A capability's table resource: the resource name its screen gives, and the adapter made for the kernel. */
export interface TableResource {
  resource: string;
  adapter(kernel: Kernel): TableAdapter;
  /** Where the base organisation's public copies of these records are kept, when the screen is public data. */
  publicStore?(kernel: Kernel): PublicStore;
}
