/** Small, pure helpers for the statistics' aggregated rows (a few per hospital, test, person or day). */

/** n of total as a percentage to one decimal (0 of nothing is 0). */
export const share = (n: number, total: number) => (total === 0 ? 0 : Math.round((n / total) * 1000) / 10);
