import { isTimeZone, localDateTime } from '../../../shared/time.js';
import { one, type Queryable } from '../db/database.js';
import type { ConfigKind } from './kinds.js';

/** The customConfig key of a lab's time zone: { zone: 'Asia/Shanghai' } (an IANA name). */
export const TIME_ZONE_KEY = 'timeZone';

/**
 * A lab's time zone (issue 20): its stamps, numbering days, log times and datetime inputs with an
 * offset are read in it. Until the lab saves one, the server's (LIMS_TIME_ZONE, else its own zone).
 */
export function timeZoneKind(serverZone: string): ConfigKind {
  return {
    owns: (key) => key === TIME_ZONE_KEY,
    defaults: () => ({ zone: serverZone }),
    check(value, locale) {
      const zone = (value as { zone?: unknown } | null)?.zone;
      if (isTimeZone(zone)) return { value: { zone } };
      return {
        problem:
          locale === 'zh-CN'
            ? '时区须为有效的IANA时区名称，如 Asia/Shanghai'
            : 'The time zone must be a valid IANA name, such as Asia/Shanghai',
      };
    },
  };
}

/** What the lab's clock needs of the kernel: the current instant and the server's default zone. */
interface Clock {
  now(): Date;
  config: { timeZone: string };
}

/**
 * The zone a capability writes a lab's local times in: the acting user's lab's (the sign-in reads it),
 * else the server's default. Never the process's own zone, which a container may set to anything.
 */
export const zoneOf = (kernel: Clock, actor?: { timeZone?: string }): string =>
  actor?.timeZone ?? kernel.config.timeZone;

/** Now, as the lab's wall-clock text ("YYYY-MM-DD HH:mm:ss") in the actor's lab's zone. */
export const labNow = (kernel: Clock, actor?: { timeZone?: string }): string =>
  localDateTime(kernel.now(), zoneOf(kernel, actor));

/** Today's date ("YYYY-MM-DD") in the actor's lab's zone. */
export const labToday = (kernel: Clock, actor?: { timeZone?: string }): string => labNow(kernel, actor).slice(0, 10);

/**
 * A lab's zone where no user acts (timers, background jobs, a record written for another's request):
 * its saved one, else the server's default.
 */
export async function labTimeZone(db: Queryable, orgId: number, serverZone: string): Promise<string> {
  const row = await one<{ zone: string | null }>(
    db,
    `select value->>'zone' as zone from custom_config where org_id = $1 and config_key = '${TIME_ZONE_KEY}'`,
    [orgId],
  );
  return row?.zone && isTimeZone(row.zone) ? row.zone : serverZone;
}
