import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Capability, SeedSetup } from './capability.js';
import type { Database } from './db/database.js';
import { one } from './db/database.js';
import { seedDemoRecords } from './resources/demoRecords.js';

/** Raise when the demo data written in code (organisations, users, dictionaries, models) changes shape. */
const DEMO_CODE_VERSION = 1;
/** Several server processes may start together on one PostgreSQL: one seeds, the others wait and skip. */
const SEED_LOCK = 7_331_002;

/** The product's own data of every capability (menus, system dictionaries), at every start. */
export async function seedAlways(db: Database, capabilities: readonly Capability[], setup: SeedSetup): Promise<void> {
  await db.transaction(async (tx) => {
    for (const capability of capabilities) await capability.seed?.always?.(tx, setup);
  });
}

/** What the demo seeding depends on: the capabilities' demo data in code and the demo files, each with its content. */
function demoFingerprint(capabilities: readonly Capability[], schemaDir: string): string {
  const data = capabilities.map((c) => [c.name, c.seed?.demoData ?? null]);
  const hash = createHash('sha256').update(JSON.stringify({ DEMO_CODE_VERSION, data }));
  const dir = path.join(schemaDir, 'demo');
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(path.join(dir, name)));
  }
  return hash.digest('hex');
}

/**
 * First-start demo data (README): the capabilities' identity seeds (organisations, roles, users), then
 * the screens' demo rows (schemas/demo, checked by the screens' own validation), then the other
 * capabilities' data. Every insert skips what is already there, so running it again changes nothing;
 * and a start whose demo data is that of the last seeding does not run it at all, so deleted demo rows
 * stay deleted.
 */
export async function seedDemo(db: Database, capabilities: readonly Capability[], setup: SeedSetup): Promise<void> {
  const fingerprint = demoFingerprint(capabilities, setup.schemaDir);
  const phase = (name: 'identity' | 'data') =>
    capabilities.filter((c) => c.seed?.demo && (c.seed.phase ?? 'data') === name);
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK]);
    if (await one(tx, "select 1 from demo_seed where name = 'demo' and fingerprint = $1", [fingerprint])) return;
    for (const capability of phase('identity')) await capability.seed!.demo!(tx, setup);
    const labs = await tx.query<{ id: number }>("select id from organization where lab_type <> 'base' order by id");
    await seedDemoRecords(
      tx,
      setup.schemaDir,
      setup.screens,
      labs.map((o) => o.id),
    );
    for (const capability of phase('data')) await capability.seed!.demo!(tx, setup);
    await tx.query(
      `insert into demo_seed (name, fingerprint) values ('demo', $1)
       on conflict (name) do update set fingerprint = excluded.fingerprint, seeded_at = now()`,
      [fingerprint],
    );
  });
}
