import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';
import { once } from '../kernel/db/perTransaction.js';

/** The inspection item a result is of, read once per transaction (kernel/db/perTransaction.ts). */
export const itemOf = (kernel: Kernel, tx: Queryable, orgId: number, id: number) =>
  once(tx, `item:${orgId}:${id}`, () => kernel.records.get(tx, 'inspectionItem', orgId, id));
