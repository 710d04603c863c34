import type { Queryable } from './database.js';

const memos = new WeakMap<Queryable, Map<string, Promise<unknown>>>();

/**
 * What a transaction reads once for all the records it writes: a worksheet of 96 specimens × 10 items
 * asked for the same tester's authority, the same items and audit rules and the same QC state at each
 * of its 960 results, and every step for the name of the actor's organisation. Only for what the
 * transaction's own steps never write, so a value read at the first record is the one the last would
 * read; forgotten with the transaction.
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
