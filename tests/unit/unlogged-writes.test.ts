// @vitest-environment node
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import type { Database, Queryable } from '../../src/server/kernel/db/database';
import { installUnloggedWriteWatch, UNLOGGED_WRITE, watchWrites } from '../../src/server/kernel/audit/unloggedWrites';

/** A database that runs nothing: the watch only reads the statements' text. */
const inert: Queryable = { query: async () => [], exec: async () => undefined };
const fakeDb: Database = {
  kind: 'pglite',
  ...inert,
  transaction: (fn) => fn(inert),
  close: async () => undefined,
  listen: async () => ({ listening: true, close: async () => undefined }),
};

/** One server whose route runs the given statements, answering what the watch reported. */
async function reportsFor(statements: string[], inTransaction = false): Promise<string[]> {
  const lines: string[] = [];
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => lines.push(line) } } });
  installUnloggedWriteWatch(app);
  const db = watchWrites(fakeDb);
  app.post('/write', async () => {
    const run = async (q: Queryable) => {
      for (const sql of statements) await q.query(sql);
    };
    await (inTransaction ? db.transaction(run) : run(db));
    return { resultCode: 200 };
  });
  await app.inject({ method: 'POST', url: '/write' });
  await app.close();
  return lines
    .filter((l) => l.includes(UNLOGGED_WRITE))
    .map((l) => (JSON.parse(l) as { tables: string[] }).tables.join(','));
}

describe('the operation-log safety net', () => {
  it('reports a request that changed lab data without a log entry, naming the tables', async () => {
    expect(
      await reportsFor([
        'update resource_record set data = $1 where id = $2',
        'delete from dictionary_detail where id = 1',
      ]),
    ).toEqual(['resource_record,dictionary_detail']);
    expect(
      await reportsFor(['with x as (insert into form_data (a) values (1) returning id) select * from x'], true),
    ).toEqual(['form_data']);
  });

  it('is quiet when the write is logged, when only bookkeeping changed, and for locks and upserts of a read', async () => {
    expect(
      await reportsFor(
        ['update resource_record set data = $1', 'insert into operation_log (resource) values ($1)'],
        true,
      ),
    ).toEqual([]);
    expect(
      await reportsFor(['insert into session_token (token) values ($1)', 'update process_instance set state = $1']),
    ).toEqual([]);
    expect(await reportsFor(['select * from workflow_task where id = $1 for update', 'select 1'])).toEqual([]);
  });
});
