import { fieldByKey, optionLabel, type ScreenSchema } from '../../shared/screens/fields.js';
import type { Kernel } from '../kernel/context.js';
import type { Caller } from '../kernel/identity/actor.js';
import type { Handover } from './store.js';

export const EXPORT_REGISTER = 'handoverExport';

/**
 * 数据导出: every file of handover data taken out of the screen (an Excel list, a PDF summary) is
 * registered, as data-protection rules ask, by the server that made it: the handover days it covers, the
 * receiving groups, the format, how many handovers, and who took it when (numbered and stamped by the
 * register's schema). The purpose is the exporter's to add. Registered before the file is sent: a file
 * whose register entry failed is not handed out.
 */
export async function registerExport(
  kernel: Kernel,
  caller: Caller,
  screen: ScreenSchema,
  handovers: Handover[],
  format: 'xlsx' | 'pdf',
): Promise<void> {
  const days = handovers
    .map((h) => String(h.data.handedAt ?? '').slice(0, 10))
    .filter((d) => d !== '')
    .sort();
  const toGroup = fieldByKey(screen, 'toGroup');
  const groups = [...new Set(handovers.flatMap((h) => (h.data.toGroup ? [h.data.toGroup] : [])))].map(
    (g) => optionLabel(toGroup, g, caller.locale) ?? String(g),
  );
  await kernel.db.transaction((tx) =>
    kernel.resources.createFor(
      caller,
      EXPORT_REGISTER,
      {
        periodFrom: days[0] ?? null,
        periodTo: days[days.length - 1] ?? null,
        groups: groups.join('、').slice(0, 100) || null,
        format,
        rowCount: handovers.length,
      },
      tx,
    ),
  );
}
