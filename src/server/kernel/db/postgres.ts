import pg from 'pg';
import type { Database, Queryable } from './database.js';
import { NotifyListener } from '../push/listener.js';

// bigint (int8) and numeric stay text, as on PGlite.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params?: unknown[]) {
      const result = await client.query(sql, params as unknown[] | undefined);
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: Number(process.env.LIMS_DB_POOL_SIZE) || 10 });
  // An idle connection the server loses (PostgreSQL restarted, a connection terminated) is dropped by
  // the pool, which opens a new one when next needed; unhandled, its error would end the process.
  pool.on('error', (error) =>
    console.error(`PostgreSQL: an idle connection was lost (${error.message}); it will be replaced`),
  );
  await pool.query('select 1');
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    // A connection of its own per channel, kept open and reconnected (push/listener.ts).
    async listen(channel, onNotice, onGap) {
      const log = { warn: (message: string) => console.warn(message) };
      const listener = new NotifyListener(connectionString, channel, onNotice, log, onGap);
      await listener.start();
      return listener;
    },
  };
}
