import { isTimeZone } from '../../../shared/time.js';
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
