import { ITEMS, PANELS, QC, panelsOf, patientName, type PanelName, type Sex } from './catalogue.js';
import { Random } from './random.js';

/**
 * The plan of a generated day, made from the seed alone (no database): who comes in when, for what,
 * with which values, and when the lab's rounds (instrument uploads, reviews, audits) and QC runs are.
 * The executor (lab.ts) then does it through the product's API at these times.
 */
export interface MonthSize {
  days: number;
  perDay: number;
  seed: number;
}

export interface PlannedSpecimen {
  /** Day and number within it: unique in the month, printed in patients' record numbers. */
  key: string;
  patientName: string;
  sex: Sex;
  age: number;
  /** Index into the lab's referral hospitals, the first ones sending most. */
  hospital: number;
  /** Entered at the front desk, or by special entry (a hospital's request keyed in later, by another clerk). */
  entry: 'frontDesk' | 'special';
  panels: PanelName[];
  specimenType: '全血' | '血清';
  registeredAt: Date;
  collectedAt: Date;
  receivedAt: Date;
  /** Refused on receipt (haemolysed, clotted…): never tested. */
  rejected: boolean;
  /** Patient values by item code, as the instrument reports them. */
  values: Record<string, number>;
  /** Its report is invalidated and reissued corrected (a typing error found by the ward). */
  corrected: boolean;
}

export interface PlannedQcRun {
  /** Index into QC (catalogue.ts). */
  qc: number;
  runAt: Date;
  /** Distance from the target in SDs: the executor makes the value from the lot's target. */
  z: number;
  /** The month's one Westgard violation, followed by its conclusion and a rerun. */
  violation: boolean;
}

export interface DayPlan {
  day: number;
  date: Date;
  specimens: PlannedSpecimen[];
  qcRuns: PlannedQcRun[];
  /** Results uploaded from the instruments (the tester's batch) every half hour. */
  uploads: Date[];
  /** First reviews and audits every hour, each by one of two staff in turn (a signature costs a password check). */
  reviews: Date[];
  audits: Date[];
}

const MINUTE = 60_000;
const at = (date: Date, hours: number) => new Date(date.getTime() + Math.round(hours * 60) * MINUTE);
const plus = (time: Date, minutes: number) => new Date(time.getTime() + Math.round(minutes) * MINUTE);

/** The days of a month ending yesterday (lab's local days), the first at local midnight. */
export function firstDayOf(days: number, today: Date): Date {
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() - days);
}

export const dayDate = (first: Date, day: number) =>
  new Date(first.getFullYear(), first.getMonth(), first.getDate() + day);

/** When a specimen is registered: the morning peak of the wards' rounds, the afternoon, a few emergencies. */
function registrationHour(r: Random): number {
  const when = r.weighted([
    ['morning', 65],
    ['afternoon', 26],
    ['evening', 9],
  ] as const);
  if (when === 'morning') return Math.min(11.8, Math.max(7, r.normal(9, 0.9)));
  if (when === 'afternoon') return Math.min(17.3, Math.max(12.5, r.normal(14.6, 1)));
  return r.uniform(17.5, 22.5);
}

/** Hospitals send unevenly: the first one most, each next one less. */
const hospitalOf = (r: Random, count: number) =>
  r.weighted(Array.from({ length: count }, (_, i) => [i, 1 / (i + 1)] as const));

function specimenOf(r: Random, date: Date, day: number, n: number, hospitals: number): PlannedSpecimen {
  const sex: Sex = r.chance(0.52) ? 'female' : 'male';
  const panels = panelsOf(r);
  const registeredAt = at(date, registrationHour(r));
  const collectedAt = plus(registeredAt, r.uniform(3, 25));
  // Courier runs from the hospitals: most within the hour, a long tail.
  const transport = Math.min(240, Math.max(15, r.logNormal(55, 0.45)));
  // Received by 03:00 at the latest, so that the night's last rounds (until 04:00) take it through.
  const receivedAt = new Date(Math.min(plus(collectedAt, transport).getTime(), at(date, 27).getTime()));
  const values: Record<string, number> = {};
  for (const panel of panels)
    for (const code of PANELS[panel].items)
      values[code] = Number(ITEMS[code]!.draw(r, sex).toFixed(ITEMS[code]!.decimals));
  return {
    key: `${day + 1}-${n + 1}`,
    patientName: patientName(r),
    sex,
    age: Math.round(Math.min(95, Math.max(18, r.normal(52, 17)))),
    hospital: hospitalOf(r, hospitals),
    entry: r.chance(0.15) ? 'special' : 'frontDesk',
    panels,
    specimenType: PANELS[panels[0]!].specimenType,
    registeredAt,
    collectedAt,
    receivedAt,
    rejected: r.chance(0.015),
    values,
    corrected: r.chance(0.006),
  };
}

/**
 * Every QC run of the month, per plan: twice a day, within control, with no streak a Westgard rule
 * would flag (the z of each run chosen against the ones before it), but for the one violation
 * planned in the middle of the month, its rerun twenty minutes later in control.
 */
export function qcRunsOf(size: MonthSize, first: Date): PlannedQcRun[][] {
  const violationDay = Math.floor(size.days / 2);
  const byDay: PlannedQcRun[][] = Array.from({ length: size.days }, () => []);
  QC.forEach((_, qc) => {
    const r = new Random(size.seed, 1_000_000 + qc);
    const history: number[] = [];
    for (let day = 0; day < size.days; day++) {
      for (const hour of [7.5, 13.5]) {
        const runAt = at(dayDate(first, day), hour + r.uniform(-0.15, 0.15));
        if (qc === 0 && day === violationDay && hour === 7.5) {
          byDay[day]!.push({ qc, runAt: plus(runAt, -20), z: 3.4, violation: true });
          history.push(0);
          byDay[day]!.push({ qc, runAt, z: Number(r.uniform(-0.5, 0.5).toFixed(2)), violation: false });
          continue;
        }
        const z = Number(steadyZ(r, history).toFixed(2));
        history.push(z);
        byDay[day]!.push({ qc, runAt, z, violation: false });
      }
    }
  });
  return byDay;
}

/** A z within 2 SD that makes no streak: never a fourth beyond 1 SD or a tenth on one side in a row. */
function steadyZ(r: Random, history: number[]): number {
  let z = Math.max(-1.9, Math.min(1.9, r.normal(0, 0.8)));
  const last = history.slice(-9);
  if (last.length === 9 && (last.every((v) => v > 0) || last.every((v) => v < 0)))
    z = -Math.sign(last[8]!) * Math.abs(z);
  const near = history.slice(-3);
  if (near.length === 3 && near.every((v) => Math.abs(v) > 1)) z = Math.sign(z) * Math.min(Math.abs(z), 0.8);
  return z;
}

/** Rounds from the first upload of the morning until the last specimen of the evening is through. */
function rounds(date: Date, everyMinutes: number, offsetMinutes: number): Date[] {
  const times: Date[] = [];
  for (let m = 7 * 60 + offsetMinutes; m <= 28 * 60; m += everyMinutes) times.push(plus(date, m));
  return times;
}

/** One day of the month, the same for the same seed, day and size whenever it is made. */
export function planDay(
  size: MonthSize,
  first: Date,
  day: number,
  hospitals: number,
  qcRuns?: PlannedQcRun[],
): DayPlan {
  const date = dayDate(first, day);
  const r = new Random(size.seed, day);
  const specimens = Array.from({ length: size.perDay }, (_, n) => specimenOf(r, date, day, n, hospitals)).sort(
    (a, b) => a.registeredAt.getTime() - b.registeredAt.getTime(),
  );
  return {
    day,
    date,
    specimens,
    qcRuns: qcRuns ?? qcRunsOf(size, first)[day]!,
    uploads: rounds(date, 30, 50),
    reviews: rounds(date, 60, 70),
    audits: rounds(date, 60, 95),
  };
}
