// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/server/kernel/db/database';
import { once } from '../../src/server/kernel/db/perTransaction';

/**
 * A worksheet's transaction reads the tester's authority, the items and the QC state once for all its
 * results; another transaction reads them afresh (an authority granted between two saves counts at
 * once), and nothing read outside a transaction is kept.
 */
const transaction = (): Queryable => ({ query: () => Promise.resolve([]), exec: () => Promise.resolve() });

describe('reads kept for one transaction', () => {
  it('reads a key once within a transaction, again in the next, and keys apart', async () => {
    let reads = 0;
    const load = () => Promise.resolve(++reads);
    const first = transaction();
    expect([await once(first, 'a', load), await once(first, 'a', load), await once(first, 'b', load)]).toEqual([
      1, 1, 2,
    ]);
    expect(await once(transaction(), 'a', load)).toBe(3);
  });

  it('keeps nothing read on the database itself, which outlives every transaction', async () => {
    let reads = 0;
    const db = { ...transaction(), transaction: () => Promise.reject(new Error('unused')) };
    await once(db, 'a', () => Promise.resolve(++reads));
    await once(db, 'a', () => Promise.resolve(++reads));
    expect(reads).toBe(2);
  });
});
