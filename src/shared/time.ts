/**
 * Datetimes as the screens store and show them: the lab's wall-clock time, "YYYY-MM-DD HH:mm:ss".
 * Database columns keep instants with their zone (timestamptz); a record's datetime fields are the
 * lab's local time in its configured zone (customConfig timeZone, default LIMS_TIME_ZONE or the
 * server's own zone), and an input with an offset (ISO 8601: 2026-03-01T12:00:00Z, …+08:00) is
 * converted to it.
 */

/**
 * One formatter per zone, kept: making an Intl.DateTimeFormat costs far more than formatting with it,
 * and a list answer formats a time for each of its rows.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Local wall-clock time in the zone (IANA name), or in the process's own zone when none is given. */
export function localDateTime(d: Date, timeZone?: string): string {
  if (!timeZone)
    return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Whether the text names a time zone this runtime knows (IANA names such as Asia/Shanghai, or UTC). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '' || zone.length > 64) return false;
  try {
    // A zone the runtime does not know throws here, and is not kept.
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone the process runs in, when nothing else is configured. */
export const processTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const WITH_OFFSET = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A datetime written with its offset, as the lab's local time in `timeZone`; undefined when the text
 * has no offset (then it is local time already, checked as such) or is no real instant.
 */
export function offsetDateTimeIn(text: string, timeZone: string): string | undefined {
  const m = WITH_OFFSET.exec(text.trim());
  if (!m) return undefined;
  const offset = m[3]!.toUpperCase() === 'Z' ? 'Z' : m[3]!.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const instant = new Date(`${m[1]}T${m[2]}${offset}`);
  return Number.isNaN(instant.getTime()) ? undefined : localDateTime(instant, timeZone);
}

/** Minutes the zone's wall clock is ahead of UTC at that instant (480 in Shanghai, -420 in summer Los Angeles). */
export function zoneOffsetMinutes(at: Date, timeZone: string): number {
  const wall = Date.parse(`${localDateTime(at, timeZone).replace(' ', 'T')}Z`);
  return Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant at which the zone's wall clock reads this local time (month 1-12; a day, month or
 * second past its end rolls over, as Date.UTC does). Read twice, so a time beside a daylight-saving
 * change takes the offset in force at it.
 */
export function zonedInstant(timeZone: string, y: number, month: number, d = 1, h = 0, mi = 0, s = 0): Date {
  const wall = Date.UTC(y, month - 1, d, h, mi, s);
  const first = wall - zoneOffsetMinutes(new Date(wall), timeZone) * 60_000;
  return new Date(wall - zoneOffsetMinutes(new Date(first), timeZone) * 60_000);
}
