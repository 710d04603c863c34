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

/** The table the lab reads new results with (the one in use); refused, naming where to choose it, when none is. */
export async function labTable(kernel: Kernel, tx: Queryable, orgId: number, locale: Locale): Promise<Table> {
  const [inUse] = await kernel.records.find(tx, 'susceptibilitySetting', orgId, { inUse: true }, { limit: 1 });
  if (!inUse?.data.guideline || !inUse.data.tableVersion) refused(MICRO_MESSAGES.noSetting, locale);
  return { guideline: inUse.data.guideline, version: inUse.data.tableVersion };
}

/**
 * The lab's register of breakpoint tables (药敏判读标准): only of tables whose breakpoints exist (a
 * typo in the version would otherwise leave every new result without a breakpoint), and one in use at
 * a time: the table marked in use takes the mark from the others, each change logged as an edit.
 */
export const oneTableInUse: HookRegistration = {
  resource: 'susceptibilitySetting',
  order: 20,
  hooks: {
    async beforeWrite({ tx, kernel, actor, locale }, data) {
      const guideline = String(data.guideline ?? '');
      const version = String(data.tableVersion ?? '').trim();
      const where = { guideline, tableVersion: version };
      const rows = await kernel.records.find(tx, 'breakpoint', actor.orgId, where, { limit: 1 });
      if (rows.length === 0) refused(MICRO_MESSAGES.noTable, locale, { guideline, version }, 'tableVersion');
      return { ...data, tableVersion: version };
    },
    async afterWrite({ tx, kernel, actor, locale, ip }, row) {
      if (row.data.inUse !== true) return;
      const others = await kernel.records.find(tx, 'susceptibilitySetting', actor.orgId, { inUse: true });
      for (const other of others.filter((o) => o.id !== row.id))
        await kernel.resources.update(
          { actor, locale, ip },
          'susceptibilitySetting',
          other.id,
          { version: other.version, inUse: false },
          { tx },
        );
    },
  },
};
