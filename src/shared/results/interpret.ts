/**
 * What the lab's data says about a result, so nobody types it (domain: "Inspection and results"): the
 * reference range that applies to the patient (sex, age band, specimen type), the value rounded to the
 * item's decimals, its H/L flag, its critical flag (HH/LL) against the item's critical limits, and a
 * delta check against the patient's previous result of the same item. Shared: the server decides, the
 * worksheet shows the same answer while the user types.
 */
export interface ReferenceRange {
  sex?: 'all' | 'male' | 'female' | null;
  ageFrom?: number | null;
  /** Exclusive: a band 0–18 and a band 18–150 meet at 18 without overlapping. */
  ageTo?: number | null;
  ageUnit?: 'year' | 'month' | 'day' | null;
  /** The specimen type the range is for; empty: any. */
  specimenType?: number | null;
  lower?: number | null;
  upper?: number | null;
  text?: string | null;
}

export interface ItemRules {
  resultType?: 'numeric' | 'qualitative' | 'text' | null;
  unit?: string | null;
  decimals?: number | null;
  referenceRanges?: ReferenceRange[] | null;
  criticalLow?: number | null;
  criticalHigh?: number | null;
}

export interface Patient {
  sex?: string | null;
  /** Age in years, as the specimen records it. */
  age?: number | null;
  specimenType?: number | null;
}

/** N normal, H/L outside the range, HH/LL critical, A a coded result other than the normal one. */
export type Flag = 'N' | 'H' | 'L' | 'HH' | 'LL' | 'A';

/** A coded result's entry of the item's result dictionary: the code typed at the bench, the word reported. */
export interface ResultCode {
  value: string;
  label: string;
}

const DAYS_PER: Record<string, number> = { year: 365.25, month: 30.4375, day: 1 };

const present = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/** Whether a patient of this age (years) is inside a band given in the band's own unit. */
function inBand(range: ReferenceRange, ageYears: number | null | undefined): boolean {
  if (!present(range.ageFrom) && !present(range.ageTo)) return true;
  if (!present(ageYears)) return false;
  const age = (ageYears * DAYS_PER.year!) / DAYS_PER[range.ageUnit ?? 'year']!;
  return (!present(range.ageFrom) || age >= range.ageFrom) && (!present(range.ageTo) || age < range.ageTo);
}

/**
 * The range for the patient: of those whose sex, age band and specimen type admit them, the most
 * specific (one for this specimen type before one for any, then one for this sex before one for all).
 */
export function rangeFor(
  ranges: readonly ReferenceRange[] | null | undefined,
  patient: Patient,
): ReferenceRange | undefined {
  const fits = (ranges ?? []).filter(
    (r) =>
      (!r.sex || r.sex === 'all' || r.sex === patient.sex) &&
      (!present(r.specimenType) || r.specimenType === patient.specimenType) &&
      inBand(r, patient.age),
  );
  // The specimen type decides first (a urine value is another measure than a serum one), then the sex.
  const specificity = (r: ReferenceRange) => (present(r.specimenType) ? 2 : 0) + (r.sex && r.sex !== 'all' ? 1 : 0);
  return fits.sort((a, b) => specificity(b) - specificity(a))[0];
}

/** A range as the report prints it: its own text, else lower–upper, ≤ upper or ≥ lower. */
export function rangeText(range: ReferenceRange | undefined): string {
  if (!range) return '';
  if (range.text) return range.text;
  if (present(range.lower) && present(range.upper)) return `${range.lower}-${range.upper}`;
  if (present(range.upper)) return `≤${range.upper}`;
  if (present(range.lower)) return `≥${range.lower}`;
  return '';
}

/** A numeric result as typed (full-width digits and commas forgiven); undefined when it is not a number. */
export function numericValue(text: string): number | undefined {
  const normal = text
    .trim()
    .replace(/[０-９．]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/,/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(normal)) return undefined;
  return Number(normal);
}

export interface Interpretation {
  /** The value as stored and printed: rounded to the item's decimals for a number. */
  result: string;
  unit: string;
  referenceRange: string;
  flag: Flag | '';
  critical: boolean;
}

/**
 * A coded result as reported: the entry whose code or word was typed (case and width forgiven), flagged
 * A when it is not the normal word the reference range gives (阴性 for 阴性 <0.05).
 */
function coded(
  value: string,
  codes: readonly ResultCode[],
  normal: string,
): { result: string; flag: Flag | '' } | undefined {
  const typed = value.trim().toLowerCase();
  const entry = codes.find((c) => c.value.toLowerCase() === typed || c.label.toLowerCase() === typed);
  if (!entry) return undefined;
  return { result: entry.label, flag: normal === '' ? '' : entry.label === normal ? 'N' : 'A' };
}

/**
 * Everything the server writes beside a result's value; `error` when a numeric item was given no number,
 * or a coded item (a qualitative one with a result dictionary) a value that is none of its entries.
 */
export function interpret(
  value: string,
  item: ItemRules,
  patient: Patient,
  codes: readonly ResultCode[] = [],
): Interpretation | { error: 'notNumeric' | 'notCoded' } {
  const range = rangeFor(item.referenceRanges, patient);
  const base = { unit: item.unit ?? '', referenceRange: rangeText(range) };
  if (item.resultType === 'qualitative' && codes.length > 0) {
    const read = coded(value, codes, (range?.text ?? '').split(/\s/)[0]!);
    return read ? { ...base, ...read, critical: false } : { error: 'notCoded' };
  }
  if (item.resultType && item.resultType !== 'numeric')
    return { ...base, result: value.trim(), flag: '', critical: false };
  const n = numericValue(value);
  if (n === undefined) return { error: 'notNumeric' };
  const rounded = present(item.decimals) ? n.toFixed(item.decimals) : String(n);
  const v = Number(rounded);
  const flag: Flag =
    present(item.criticalLow) && v <= item.criticalLow
      ? 'LL'
      : present(item.criticalHigh) && v >= item.criticalHigh
        ? 'HH'
        : range && present(range.lower) && v < range.lower
          ? 'L'
          : range && present(range.upper) && v > range.upper
            ? 'H'
            : 'N';
  return { ...base, result: rounded, flag, critical: flag === 'HH' || flag === 'LL' };
}

export interface DeltaRule {
  /** Largest change allowed, in percent of the previous value. */
  deltaPercent: number;
  /** Only a previous result this many days old or newer counts; empty: any. */
  deltaDays?: number | null;
}

/**
 * The delta check: a change from the patient's previous result of the item larger than the rule allows
 * (in percent of the previous value), when the previous one is recent enough. Undefined: nothing to compare.
 */
export function deltaExceeded(
  current: number,
  previous: { value: number; at: Date } | undefined,
  rule: DeltaRule,
  now: Date,
): { percent: number } | undefined {
  if (!previous || previous.value === 0) return undefined;
  if (present(rule.deltaDays) && now.getTime() - previous.at.getTime() > rule.deltaDays * 86_400_000) return undefined;
  const percent = (Math.abs(current - previous.value) / Math.abs(previous.value)) * 100;
  return percent > rule.deltaPercent ? { percent: Math.round(percent * 10) / 10 } : undefined;
}
