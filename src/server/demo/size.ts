import type { MonthSize } from './plan.js';

/**
 * The demo month `npm start` offers a fresh lab: 30 days of 60 specimens. A real lab of the demo's
 * kind sees a few hundred a day, but every specimen here is done step by step through the API (about
 * ten calls, a report PDF, signed approvals), some 2–4 specimens a second on the embedded database:
 * 1,800 specimens fill every screen in 10–15 minutes, while 30 × 200 would keep the machine busy for
 * most of an hour. A bigger month is one command away (npm run demo-month -- --days --per-day).
 */
export const DEFAULT_MONTH = '30x60';
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
