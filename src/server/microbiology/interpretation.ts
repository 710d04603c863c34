/** The guidelines whose breakpoint tables a lab reads susceptibility with. */
export type Guideline = 'CLSI' | 'EUCAST';
export type Method = 'mic' | 'disk';
/** S, I (EUCAST: susceptible, increased exposure), SDD (CLSI: susceptible-dose dependent), R. */
export type Category = 'S' | 'I' | 'SDD' | 'R';

/** One breakpoint row as the guideline prints it: the S and R values of its method, and whether between is SDD. */
export interface Breakpoint {
  micS?: number | null;
  micR?: number | null;
  zoneS?: number | null;
  zoneR?: number | null;
  sdd?: boolean | null;
}

/**
 * The category of one measurement against one breakpoint, with the comparisons each guideline prints:
 *
 * | method | S (both)   | R, CLSI      | R, EUCAST   |
 * |--------|------------|--------------|-------------|
 * | MIC    | MIC ≤ S    | MIC ≥ R      | MIC > R     |
 * | zone   | zone ≥ S   | zone ≤ R     | zone < R    |
 *
 * Between S and R is I, or SDD where a CLSI breakpoint says so (cefepime for Enterobacterales). A
 * breakpoint lacking the values of the method answers undefined: no category is guessed.
 */
export function interpret(
  guideline: Guideline,
  method: Method,
  measured: number,
  bp: Breakpoint,
): Category | undefined {
  const [s, r] = method === 'mic' ? [bp.micS, bp.micR] : [bp.zoneS, bp.zoneR];
  if (typeof s !== 'number' || typeof r !== 'number' || !Number.isFinite(measured)) return undefined;
  const eucast = guideline === 'EUCAST';
  const susceptible = method === 'mic' ? measured <= s : measured >= s;
  // The S test goes first: a EUCAST row with S ≤ 2, R > 2 reads 2 as S, never as both.
  if (susceptible) return 'S';
  const resistant = method === 'mic' ? (eucast ? measured > r : measured >= r) : eucast ? measured < r : measured <= r;
  if (resistant) return 'R';
  return !eucast && bp.sdd ? 'SDD' : 'I';
}
