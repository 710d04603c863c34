import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';

const memos = new WeakMap<Queryable, Map<string, Promise<unknown>>>();

/**
 * What a transaction reads once for all the results it writes: a worksheet of 96 specimens × 10 items
 * asked for the same tester's authority, the same items and audit rules and the same QC state at each
 * of its 960 results. Only for what the results' own steps never write (authority, items, rules, QC),
 * so a value read at the first result is the one the last would read; forgotten with the transaction.
 */
export function once<T>(tx: Queryable, key: string, load: () => Promise<T>): Promise<T> {
  // Outside a transaction (the database itself) nothing is kept: it would be kept for good.
  if ('transaction' in tx) return load();
  let memo = memos.get(tx);
  if (!memo) memos.set(tx, (memo = new Map()));
  let found = memo.get(key) as Promise<T> | undefined;
  if (!found) {
    found = load();
    memo.set(key, found);
  }
  return found;
}

/** The inspection item a result is of, read once per transaction. */
export const itemOf = (kernel: Kernel, tx: Queryable, orgId: number, id: number) =>
  once(tx, `item:${orgId}:${id}`, () => kernel.records.get(tx, 'inspectionItem', orgId, id));
