import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { Database, Queryable } from '../db/database.js';
import { tablesWritten } from '../db/writes.js';

/**
 * A safety net under the operation log (domain notes: every write is kept with who, when and what).
 * Each capability appends its own entries, in its own words; this watch notices a request that
 * changed lab data without appending one, and reports it at error level with the tables touched, so a
 * forgotten entry is found (the test servers fail on it) instead of silently missing from the log.
 */
export const UNLOGGED_WRITE = 'write without an operation-log entry';

/**
 * Tables whose rows are the server's own bookkeeping rather than lab data: sign-in sessions, the
 * engine's saved state (its steps are logged as the task completions and starts that cause them),
 * the demo fingerprint, the count of wrong passwords per name (a lock is logged when it happens).
 * Writing them needs no entry of its own.
 */
const BOOKKEEPING = new Set(['session_token', 'demo_seed', 'process_instance', 'workflow_history', 'login_guard']);

interface Watch {
  tables: Set<string>;
  logged: boolean;
}
const current = new AsyncLocalStorage<Watch>();

function note(sql: string) {
  const watch = current.getStore();
  if (!watch) return;
  for (const name of tablesWritten(sql)) {
    if (name === 'operation_log') watch.logged = true;
    else if (!BOOKKEEPING.has(name)) watch.tables.add(name);
  }
}

function watched(q: Queryable): Queryable {
  return {
    query: (sql, params) => {
      note(sql);
      return q.query(sql, params);
    },
    exec: (sql) => q.exec(sql),
  };
}

/** The database as the request handlers use it: the same, with its write statements noted. */
export function watchWrites(db: Database): Database {
  return {
    kind: db.kind,
    ...watched(db),
    transaction: (fn) => db.transaction((tx) => fn(watched(tx))),
    close: () => db.close(),
    ...(db.dump && { dump: db.dump }),
    listen: (channel, onNotice, onGap) => db.listen(channel, onNotice, onGap),
  };
}

/** Opens a watch per request and reports, after a successful answer, data written but not logged. */
export function installUnloggedWriteWatch(app: FastifyInstance) {
  app.addHook('onRequest', (_request, _reply, done) => {
    current.run({ tables: new Set(), logged: false }, done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const watch = current.getStore();
    if (!watch || watch.logged || watch.tables.size === 0 || reply.statusCode >= 400) return;
    request.log.error(
      { method: request.method, url: request.routeOptions.url, tables: [...watch.tables] },
      UNLOGGED_WRITE,
    );
  });
}
