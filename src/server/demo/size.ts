import type { MonthSize } from './plan.js';

/**
 * The demo month `npm start` offers a fresh lab: 30 days of 200 specimens (6,000 specimens, some
 * 10,000 results, 60 QC runs per plan), a lab of the demo's kind. Every specimen goes its whole way
 * through the API (registration, labels, a courier's handover for a third of them, the work list's
 * tasks, signed approvals with a password check each, a report PDF). `npm run demo-month -- --days 3
 * --per-day 200 --timing` made 3.7 specimens/s on PGlite on a quiet 2-core machine (0.4–0.5 beside a
 * full test run): some half an hour for the month, behind the app, giving way to people's requests
 * (peopleFirst.ts). Report PDFs, drawn in the background after each signature, are a third of that
 * time. Any size is one command away (npm run demo-month -- --days --per-day), or LIMS_DEMO_MONTH.
 */
export const DEFAULT_MONTH = '30x200';
export const DEFAULT_SEED = 20_261_126;

export class MonthSizeError extends Error {}

/** LIMS_DEMO_MONTH: `DAYSxPER_DAY` (30x200), or 0 for none. */
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
