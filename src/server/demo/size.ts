import type { MonthSize } from './plan.js';

/**
 * The demo month `npm start` offers a fresh lab: 30 days of 30 specimens (900 specimens, some 1,600
 * results, 60 QC runs per plan). A real lab of the demo's kind sees a few hundred a day, but every
 * specimen here goes its whole way through the API (about ten calls, signed approvals with a password
 * check each, a report PDF): `npm run bench -- demo` measured 0.21 specimens/s on PGlite and 0.40 on
 * PostgreSQL on a shared 2-core machine under a load of 12–18, a few times that on an idle one. 900
 * specimens then take minutes to a quarter of an hour in the background (the first days show at once),
 * where 30 × 200 would keep a small machine busy for hours. Any size is one command away
 * (npm run demo-month -- --days --per-day).
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
