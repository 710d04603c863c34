import type { Locale } from '../../shared/i18n/messages.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';
import { refuse } from '../kernel/resources/commands.js';
import { fill } from './issued.js';
import { labToday } from '../kernel/labConfig/timeZone.js';

const MESSAGES = {
  noRule: {
    'zh-CN': '该专业组没有启用的流水号规则，请先在流水号维护中启用一条',
    'en-US': 'The group has no enabled serial number rule: enable one under serial numbers first',
  },
  unknownSpecimen: {
    'zh-CN': '条码 {barcode} 没有登记的标本',
    'en-US': 'No specimen is registered with barcode {barcode}',
  },
  fixed: {
    'zh-CN': '流水号打印后不能修改条码和专业组；重打请用打印',
    'en-US': 'A printed serial number keeps its barcode and group; print it again instead',
  },
} satisfies Record<string, Record<Locale, string>>;

/** The part of a serial number that starts the count again: the day, the month, or nothing. */
function periodOf(reset: unknown, today: string): string {
  const day = today.replaceAll('-', '');
  if (reset === 'daily') return `${day}-`;
  if (reset === 'monthly') return `${day.slice(0, 6)}-`;
  return '';
}

/**
 * Serial numbers of a group's run (打印流水号, 流水号维护): a specimen registered in the lab takes the
 * next number of its group's enabled rule (prefix, period, start number, width), issued under the
 * resource's write lock; the print is the record, who and when stamped by the screen. Once printed,
 * its number, specimen and group stay: printing again reprints the same number.
 */
export const serialNumbers: HookRegistration = {
  resource: 'serialPrint',
  order: 20,
  hooks: {
    async beforeWrite({ tx, kernel, actor, locale, current }, data) {
      if (current) {
        if (data.barcode !== current.data.barcode || data.professionalGroup !== current.data.professionalGroup)
          refuse(locale, MESSAGES.fixed, 'barcode');
        return { ...data, serialNo: current.data.serialNo };
      }
      const barcode = String(data.barcode ?? '').trim();
      const [specimen] = await kernel.records.find(tx, 'specimen', actor.orgId, { barcode: [barcode] });
      if (!specimen) refuse(locale, fill(MESSAGES.unknownSpecimen, barcode), 'barcode');
      const group = Number(data.professionalGroup);
      const rules = await kernel.records.find(tx, 'serialNumberRule', actor.orgId, { professionalGroup: [group] });
      const rule = rules.find((r) => r.data.enabled !== false);
      if (!rule) refuse(locale, MESSAGES.noRule, 'professionalGroup');
      const prefix = `${rule.data.prefix ?? ''}-${periodOf(rule.data.resetPeriod, labToday(kernel, actor))}`;
      const last = await kernel.records.lastNumber(tx, 'serialPrint', actor.orgId, 'serialNo', prefix);
      const next = Math.max(last + 1, Number(rule.data.startNo ?? 1));
      return { ...data, barcode, serialNo: `${prefix}${String(next).padStart(Number(rule.data.width ?? 3), '0')}` };
    },
  },
};
