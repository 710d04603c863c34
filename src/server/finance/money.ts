/**
 * Money as the ledger keeps it: integer cents (分). Catalogue and form values are yuan with at most two
 * decimals (the schema's money type); they are turned into cents once, on reading, and back into yuan
 * only for showing. No sum or discount is ever computed in floating point.
 */

/** Yuan as typed on a form (12.5, "12.50") to cents; undefined when it is not a money value. */
export function cents(yuan: unknown): number | undefined {
  if (typeof yuan === 'number' && Number.isFinite(yuan)) return Math.round(yuan * 100);
  if (typeof yuan === 'string' && /^-?\d+(\.\d{1,2})?$/.test(yuan.trim())) return Math.round(Number(yuan) * 100);
  return undefined;
}

/** Cents as the money fields of a screen store them: yuan, a number of two decimals at most. */
export const yuanValue = (c: number): number => Number(yuanText(c));

/** Cents shown as yuan with two decimals ("1234.50", "-3.05"). */
export function yuanText(c: number): string {
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A discount rate in percent (85 = 八五折, one decimal allowed) as tenths of a percent. */
export const rateTenths = (percent: number): number => Math.round(percent * 10);

/**
 * What a price leaves after a discount: the share the hospital pays, rounded half up to the cent
 * (8.5 分 → 9 分), in integer arithmetic. A negative price (none is) would round towards zero.
 */
export function discounted(priceCents: number, tenths: number): number {
  return Math.floor((priceCents * tenths + 500) / 1000);
}
