import type { Queryable } from '../kernel/db/database.js';
import type { ConfigKind, ConfigValue } from '../kernel/labConfig/kinds.js';
import { getConfig } from '../kernel/labConfig/store.js';
import { STAT_MESSAGES } from './messages.js';

/** The lab's turnaround targets (customConfig key statisticsTat), in minutes. */
export const TARGETS_KEY = 'statisticsTat';

export interface TatTargets {
  /** Collection → receipt: no item carries one, so every test is held to this. */
  preAnalyticalMinutes: number;
  /** Receipt → report, for a test whose inspection item has no turnaround hours (tatHours) of its own. */
  inLabMinutes: number;
}

/**
 * Before a lab sets its own: two hours from the ward to the lab (a common pre-analytical goal for
 * routine blood), and one day in the lab (routine chemistry and haematology are reported the same or
 * the next day; an item's tatHours, when set, takes precedence).
 */
export const DEFAULT_TARGETS: TatTargets = { preAnalyticalMinutes: 120, inLabMinutes: 1440 };

const KEYS = Object.keys(DEFAULT_TARGETS) as (keyof TatTargets)[];
const valid = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 100_000;

export const targetsConfigKind: ConfigKind = {
  owns: (key) => key === TARGETS_KEY,
  defaults: () => ({ ...DEFAULT_TARGETS }) as unknown as ConfigValue,
  check(value, locale) {
    const v = (value ?? {}) as Record<string, unknown>;
    for (const key of KEYS)
      if (!valid(v[key])) return { problem: STAT_MESSAGES.badTarget[locale].replace('{key}', key) };
    return { value: Object.fromEntries(KEYS.map((k) => [k, v[k]])) };
  },
};

/** The targets in force for a lab: its saved ones, else the defaults. */
export async function targetsOf(db: Queryable, orgId: number): Promise<TatTargets> {
  const stored = await getConfig(db, orgId, TARGETS_KEY);
  return { ...DEFAULT_TARGETS, ...(stored?.value as Partial<TatTargets> | undefined) };
}
