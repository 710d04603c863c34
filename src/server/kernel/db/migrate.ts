import type { Database } from './database.js';
import { migrations } from './migrations.js';

/** Any fixed number: every server process takes the same lock, so two never migrate at once. */
const MIGRATION_LOCK = 720_401;

/**
 * Applies, in one transaction, every migration not yet recorded in schema_migrations. Running it
 * again changes nothing; a failing migration leaves the database as it was.
 */
export async function migrate(db: Database): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
    const done = new Set(
      (await tx.query<{ version: number }>('select version from schema_migrations')).map((r) => r.version),
    );
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
