import { splitCodes } from '../../shared/codes/split.js';
import { t, type Locale } from '../../shared/i18n/messages.js';

/** A slip holds at most this many specimens (a full transport box is a few hundred). */
export const MAX_SPECIMENS = 5000;

/** The barcode rule's alphabet (Code128 as printed by the barcode rules): letters, digits and -. */
const BARCODE = /^[A-Za-z0-9-]{1,30}$/;

/** Barcodes as a scanner types them (one per line, or separated by commas, semicolons or spaces). */
export const splitBarcodes = splitCodes;

/** What is wrong with a list of barcodes, in the caller's words; undefined when nothing is. */
export function barcodeProblem(barcodes: readonly string[], locale: Locale, required = true): string | undefined {
  if (required && barcodes.length === 0) return t('handover.barcodes.required', locale);
  if (barcodes.length > MAX_SPECIMENS) return t('handover.barcodes.tooMany', locale, { n: MAX_SPECIMENS });
  const seen = new Set<string>();
  for (const barcode of barcodes) {
    if (!BARCODE.test(barcode)) return t('handover.barcodes.bad', locale, { barcode: barcode.slice(0, 40) });
    if (seen.has(barcode)) return t('handover.barcodes.duplicate', locale, { barcode });
    seen.add(barcode);
  }
  return undefined;
}
