import type { MonthSize } from './plan.js';

/**
 * The demo month `npm start` offers a fresh lab: 30 days of 30 specimens (900 specimens, some 1,600
 * results, 60 QC runs per plan). A real lab of the demo's kind sees a few hundred a day, but every
 * specimen here goes its whole way through the API (some fifteen calls: registration, a courier's
 * handover for a third of them, the work list's tasks, signed approvals with a password check each, a
 * report PDF). `npm run demo-month -- --days 1 --per-day 50 --timing` measured 0.12–0.36 specimens/s on
 * PGlite on a shared 2-core machine (load 5–10); a CPU profile puts three quarters of the time in the
 * embedded database itself (its file reads and writes), the rest in report PDFs, password checks and
 * the app's own work, so 30 × 200 would keep a small machine busy for many hours. Any size is one
 * command away (npm run demo-month -- --days --per-day).
 */
export const DEFAULT_MONTH = '30x30';
export const DEFAULT_SEED = 20_261_126;

export class MonthSizeError extends Error {}

/** LIMS_DEMO_MONTH: `DAYSxPER_DAY` (30x60), or 0 for none. */
export function monthSizeOf(value: string | undefined, seed = DEFAULT_SEED): MonthSize | undefined {
  const text = (value ?? DEFAULT_MONTH).trim();
  if (text === '0' || text === '') return undefined;
  const match = /^(\d{1,3})x(\d{1,5})$/i.exec(text);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
    throw new MonthSizeError(
      `LIMS_DEMO_MONTH must be DAYSxPER_DAY (e.g. ${DEFAULT_MONTH}) or 0 for no demo month, not "${text.slice(0, 40)}"`,
    );
  return { days: Number(match[1]), perDay: Number(match[2]), seed };
}
