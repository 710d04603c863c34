import { describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/server/kernel/db/database';
import { ReadCache, WRITE_CHANNEL } from '../../src/server/kernel/db/readCache';

/** A database that answers every statement with nothing, records them, and lets the test send notices. */
function fakeDatabase() {
  const statements: string[] = [];
  const channels = new Map<string, { notice: (payload: string) => void; gap?: () => void }>();
  const state = { listening: true };
  const queryable: Queryable = {
    query: async <Row>(sql: string) => {
      statements.push(sql);
      return [] as Row[];
    },
    exec: async (sql) => {
      statements.push(sql);
    },
  };
  const db: Database = {
    kind: 'pglite',
    ...queryable,
    transaction: (fn) => fn(queryable),
    close: async () => undefined,
    listen: async (channel, notice, gap) => {
      channels.set(channel, { notice, gap });
      return {
        get listening() {
          return state.listening;
        },
        close: async () => undefined,
      };
    },
  };
  const noticeOf = (table: string) => channels.get(WRITE_CHANNEL)?.notice(table);
  return { db, statements, state, notice: () => noticeOf('specimen'), noticeOf, channels };
}

async function started(mostAgeMs = 60_000, labNow = () => new Date('2026-11-26T08:00:00Z')) {
  const fake = fakeDatabase();
  const cache = new ReadCache(fake.db, () => labNow(), mostAgeMs);
  await cache.start();
  let loads = 0;
  const read = () => cache.read('page', async () => ++loads);
  return { ...fake, cache, read, loads: () => loads };
}

describe('answers kept between writes', () => {
  it('reads once until a write notice of any process', async () => {
    const { read, notice, loads } = await started();
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    notice();
    expect(await read()).toBe(2);
    expect(loads()).toBe(2);
  });

  it("forgets on this process's own write statement, in or out of a transaction, before it answers", async () => {
    const { cache, db, read } = await started();
    const own = cache.watching(db);
    await read();
    await own.query('update resource_record set data = $1 where id = $2', [{}, 1]);
    expect(await read()).toBe(2);
    await own.transaction(async (tx) => {
      await tx.query('insert into specimen_event (specimen_id) values (1)');
    });
    expect(await read()).toBe(3);
    // A select, or the bookkeeping of a session's last use, shows in no kept answer.
    await own.query('select 1');
    await own.query('update session_token set last_used_at = now() where token_hash = $1', ['x']);
    expect(await read()).toBe(3);
  });

  it('does not keep a read that a write overtook: it may predate the write', async () => {
    const { cache, notice } = await started();
    let release = () => undefined as void;
    const slow = cache.read('page', () => new Promise<string>((resolve) => (release = () => resolve('before'))));
    notice();
    release();
    expect(await slow).toBe('before');
    expect(await cache.read('page', async () => 'after')).toBe('after');
  });

  it('shares one read among callers asking the same at once, but not across a write', async () => {
    const { cache, notice } = await started();
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return loads;
    };
    const [a, b] = await Promise.all([cache.read('page', load), cache.read('page', load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    notice();
    const first = cache.read('page', load);
    notice();
    const second = cache.read('page', load);
    expect([await first, await second]).toEqual([3, 3]);
    expect(loads).toBe(3);
  });

  it('keeps nothing while notices cannot be heard, and forgets all when they could have been missed', async () => {
    const { read, state, channels } = await started();
    await read();
    state.listening = false;
    expect(await read()).toBe(2);
    expect(await read()).toBe(3);
    state.listening = true;
    expect(await read()).toBe(4);
    channels.get(WRITE_CHANNEL)?.gap?.();
    expect(await read()).toBe(5);
  });

  it('reads afresh an answer older than its age by the wall clock or the lab clock', async () => {
    let lab = new Date('2026-11-26T08:00:00Z');
    const { read } = await started(60_000, () => lab);
    await read();
    lab = new Date(lab.getTime() + 59_000);
    expect(await read()).toBe(1);
    lab = new Date(lab.getTime() + 2_000);
    expect(await read()).toBe(2);
    const young = await started(1);
    await young.read();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await young.read()).toBe(2);
    const none = await started(0);
    await none.read();
    expect(await none.read()).toBe(2);
  });
});

describe("answers made of a few tables (a user's menu)", () => {
  const MENU = { tables: ['menu', 'role'], mostAgeMs: 60_000 };
  async function menuCache() {
    const fake = await started(1_000);
    let loads = 0;
    const menu = () => fake.cache.read('menu:1', async () => ++loads, MENU);
    return { ...fake, menu };
  }

  it('keeps them across writes of other tables, which forget every other answer', async () => {
    const { menu, read, noticeOf, cache, db } = await menuCache();
    await menu();
    await read();
    noticeOf('op_log');
    await cache.watching(db).transaction(async (tx) => {
      await tx.query('delete from login_guard where account = $1', ['admin']);
    });
    expect(await menu()).toBe(1);
    expect(await read()).toBe(2);
  });

  it('keeps a read that a write of another table overtook, not one that a write of its own tables did', async () => {
    const { cache, noticeOf } = await menuCache();
    let release = () => undefined as void;
    const slowly = (value: string) => () => new Promise<string>((resolve) => (release = () => resolve(value)));
    const read = cache.read('menu:2', slowly('before'), MENU);
    noticeOf('op_log');
    release();
    expect(await read).toBe('before');
    expect(await cache.read('menu:2', async () => 'again', MENU)).toBe('before');
    const overtaken = cache.read('menu:3', slowly('before'), MENU);
    noticeOf('menu');
    release();
    expect(await overtaken).toBe('before');
    expect(await cache.read('menu:3', async () => 'after', MENU)).toBe('after');
  });

  it('forgets them on a write of one of their tables, by any process, in or out of a transaction', async () => {
    const { menu, noticeOf, cache, db } = await menuCache();
    await menu();
    noticeOf('role');
    expect(await menu()).toBe(2);
    const own = cache.watching(db);
    await own.query('update menu set meta = $1 where id = $2', [{}, 1]);
    expect(await menu()).toBe(3);
    await own.transaction(async (tx) => {
      await tx.query('insert into op_log (action) values ($1)', ['x']);
      await tx.query('insert into role (name) values ($1)', ['x']);
    });
    expect(await menu()).toBe(4);
  });

  it('forgets them when writes could have gone unheard, when anything shaping answers changes, and with age', async () => {
    const { menu, cache, db, channels } = await menuCache();
    await menu();
    channels.get(WRITE_CHANNEL)?.gap?.();
    expect(await menu()).toBe(2);
    cache.forget();
    expect(await menu()).toBe(3);
    // A script's statements name no tables it writes.
    await cache.watching(db).exec('select 1; update role set name = name');
    expect(await menu()).toBe(4);
    // Their own age bounds them, beyond the cache's (1 s here).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await menu()).toBe(4);
  });
});
