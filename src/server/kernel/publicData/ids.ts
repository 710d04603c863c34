/** Ids a caller names: a list (the screens send arrays) or a comma-joined text (spec 7.5); anything else is left out. */
export const idList = (value: unknown): number[] =>
  (Array.isArray(value) ? value : String(value ?? '').split(','))
    .map((v) => Number(v))
    .filter((n) => Number.isInteger(n) && n > 0);
