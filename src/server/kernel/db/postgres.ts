import type pg from 'pg';
import { committing } from './afterCommit.js';
import type { Database, Queryable } from './database.js';
import { pgDriver } from './pgDriver.js';
import { NotifyListener } from '../push/listener.js';

/**
 * The server's codes for a connection it ends (administrator command, crash, shutdown): the statement
 * that meets one was never run or was rolled back with its connection, so it can be sent again.
 */
const CONNECTION_ENDED = new Set(['57P01', '57P02', '57P03']);

function endedConnection(error: unknown): boolean {
  return CONNECTION_ENDED.has((error as { code?: string } | null)?.code ?? '');
}

/**
 * Runs `attempt` again while it meets a connection the server has ended. After a restart every idle
 * pooled connection is dead, and the pool learns so only when each one's notice is read: a request
 * arriving first would otherwise fail on them in turn. Each failed connection leaves the pool, so
 * the attempts are bounded by its size.
 */
async function onLiveConnection<T>(attempts: number, attempt: () => Promise<T>): Promise<T> {
  for (let left = attempts; ; left--) {
    try {
      return await attempt();
    } catch (error) {
      if (left <= 1 || !endedConnection(error)) throw error;
    }
  }
}

function wrap(client: pg.Pool | pg.PoolClient, attempts = 1): Queryable {
  const run = (sql: string, params?: unknown[]) =>
    onLiveConnection(attempts, () => client.query(sql, params as unknown[] | undefined));
  return {
    async query<Row>(sql: string, params?: unknown[]) {
      return (await run(sql, params)).rows as Row[];
    },
    async exec(sql: string) {
      await run(sql);
    },
  };
}

/** A pooled connection on which a transaction has begun: one the server had ended is passed over. */
async function begun(pool: pg.Pool, attempts: number): Promise<pg.PoolClient> {
  return onLiveConnection(attempts, async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      return client;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  });
}

export async function openPostgres(connectionString: string): Promise<Database> {
  const size = Number(process.env.LIMS_DB_POOL_SIZE) || 10;
  const pool = new (await pgDriver()).Pool({ connectionString, max: size });
  const attempts = size + 1;
  // An idle connection the server loses (PostgreSQL restarted, a connection terminated) is dropped by
  // the pool, which opens a new one when next needed; unhandled, its error would end the process.
  pool.on('error', (error) =>
    console.error(`PostgreSQL: an idle connection was lost (${error.message}); it will be replaced`),
  );
  await pool.query('select 1');
  return {
    kind: 'postgres',
    ...wrap(pool, attempts),
    transaction: (fn) =>
      committing(async () => {
        const client = await begun(pool, attempts);
        try {
          const result = await fn(wrap(client));
          await client.query('commit');
          return result;
        } catch (error) {
          await client.query('rollback').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      }),
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
