import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgres } from '../../src/server/kernel/db/postgres';
import type { Database } from '../../src/server/kernel/db/database';

const url = process.env.TEST_DATABASE_URL;

async function terminate(pid: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Wait until the statement is running on that connection, then end it as an administrator would.
    for (;;) {
      const [row] = (await client.query(`select state from pg_stat_activity where pid = $1`, [pid])).rows;
      if (row?.state === 'active') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await client.query('select pg_terminate_backend($1)', [pid]);
  } finally {
    await client.end();
  }
}

// Skipped on PGlite (plain `npm test`): it ends connections of a PostgreSQL server (.ci/run's second pass).
describe.runIf(url)('a connection PostgreSQL ends under a statement', () => {
  let db: Database;
  const pidOf = async (q: Pick<Database, 'query'>) =>
    (await q.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;

  beforeAll(async () => {
    process.env.LIMS_DB_POOL_SIZE = '1';
    db = await openPostgres(url!);
  });
  afterAll(async () => {
    delete process.env.LIMS_DB_POOL_SIZE;
    await db?.close();
  });

  it('runs the statement again on a new connection instead of failing the request', async () => {
    const before = await pidOf(db);
    const [[answer]] = await Promise.all([
      db.query<{ pid: number }>('select pg_backend_pid() as pid from pg_sleep(0.3)'),
      terminate(before),
    ]);
    expect(answer!.pid).not.toBe(before);
    expect(await pidOf(db)).toBe(answer!.pid);
  });
});
