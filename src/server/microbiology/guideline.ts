import type { Locale } from '../../shared/i18n/messages.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';
import type { Guideline } from './interpretation.js';
import { MICRO_MESSAGES, refused } from './messages.js';

/** A breakpoint table: its guideline and the version its rows name (CLSI M100-Ed34 2024, EUCAST v14.0). */
export interface Table {
  guideline: Guideline;
  version: string;
}

/** The table the lab reads new results with (药敏判读标准设置); refused, naming where to choose it, when none is chosen. */
export async function labTable(kernel: Kernel, tx: Queryable, orgId: number, locale: Locale): Promise<Table> {
  const [setting] = await kernel.records.find(tx, 'susceptibilitySetting', orgId, {}, { limit: 1 });
  if (!setting?.data.guideline || !setting.data.tableVersion) refused(MICRO_MESSAGES.noSetting, locale);
  return { guideline: setting.data.guideline, version: setting.data.tableVersion };
}

/**
 * The lab's choice of guideline: one per laboratory, and only of a table whose breakpoints exist (a
 * typo in the version would otherwise leave every new result without a breakpoint).
 */
export const oneGuidelinePerLab: HookRegistration = {
  resource: 'susceptibilitySetting',
  order: 20,
  hooks: {
    async beforeWrite({ tx, kernel, actor, locale, current }, data) {
      const others = await kernel.records.find(tx, 'susceptibilitySetting', actor.orgId);
      if (others.some((o) => o.id !== current?.id)) refused(MICRO_MESSAGES.oneSetting, locale);
      const guideline = String(data.guideline ?? '');
      const version = String(data.tableVersion ?? '').trim();
      const rows = await kernel.records.find(
        tx,
        'breakpoint',
        actor.orgId,
        { guideline, tableVersion: version },
        {
          limit: 1,
        },
      );
      if (rows.length === 0) refused(MICRO_MESSAGES.noTable, locale, { guideline, version }, 'tableVersion');
      return { ...data, tableVersion: version };
    },
  },
};
