import type { Queryable } from '../db/database.js';
import { one } from '../db/database.js';
import { SESSION_CHANNEL } from '../identity/sessionCache.js';
import type { ConfigValue } from './kinds.js';
import { TIME_ZONE_KEY } from './timeZone.js';

export interface StoredConfig {
  value: ConfigValue;
  version: number;
  updatedAt: Date;
}

export function getConfig(db: Queryable, orgId: number, key: string): Promise<StoredConfig | undefined> {
  return one<StoredConfig>(
    db,
    'select value, version, updated_at as "updatedAt" from custom_config where org_id = $1 and config_key = $2',
    [orgId, key],
  );
}

/** Inserts or replaces a lab's value of a key; answers the stored row. */
export async function saveConfig(
  db: Queryable,
  orgId: number,
  key: string,
  value: ConfigValue,
  userId: number,
): Promise<StoredConfig> {
  const row = await one<StoredConfig>(
    db,
    `insert into custom_config (org_id, config_key, value, updated_by) values ($1, $2, $3, $4)
     on conflict (org_id, config_key) do update set value = excluded.value, version = custom_config.version + 1,
       updated_by = excluded.updated_by, updated_at = now()
     returning value, version, updated_at as "updatedAt"`,
    [orgId, key, JSON.stringify(value), userId],
  );
  // Sessions carry their lab's time zone: every process forgets the sessions it remembers at commit
  // (the session cache's channel), so the next stamp of any user of the lab is in the new zone.
  if (key === TIME_ZONE_KEY) await db.query(`select pg_notify('${SESSION_CHANNEL}', 'all')`);
  return row!;
}
