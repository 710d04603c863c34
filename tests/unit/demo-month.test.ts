import { describe, expect, it } from 'vitest';
import { ITEMS, QC } from '../../src/server/demo/catalogue';
import { firstDayOf, planDay, qcRunsOf, type DayPlan } from '../../src/server/demo/plan';
import { monthSizeOf } from '../../src/server/demo/size';
import { byCourier, courierBoxes } from '../../src/server/demo/handovers';
import { bySpecimens, labelRuns } from '../../src/server/demo/lab';

/**
 * The plan of a generated month (issue 19): the same seed makes the same month, and what it makes
 * looks like a lab's month (times of day, values with their abnormal tails, QC in control but once).
 */
const first = new Date(2026, 9, 1);
const size = { days: 30, perDay: 200, seed: 7 };
const month = (s = size): DayPlan[] => Array.from({ length: s.days }, (_, d) => planDay(s, first, d, 5));
const plans = month();
const specimens = plans.flatMap((p) => p.specimens);
const hour = (d: Date) => d.getHours() + d.getMinutes() / 60;
const share = <T>(xs: T[], test: (x: T) => boolean) => xs.filter(test).length / xs.length;

describe('a month planned from a seed', () => {
  it('is the same month for the same seed, a day at a time or all at once, and another for another seed', () => {
    expect(JSON.stringify(month())).toBe(JSON.stringify(plans));
    // A month resumed at day 17 makes day 17 as the uninterrupted run did.
    expect(JSON.stringify(planDay(size, first, 17, 5))).toBe(JSON.stringify(plans[17]));
    const other = month({ ...size, seed: 8 });
    expect(other[0]!.specimens.map((s) => s.patientName)).not.toEqual(plans[0]!.specimens.map((s) => s.patientName));
    expect(specimens).toHaveLength(6000);
  });

  it('registers most specimens in the morning, collects and receives each after it, within the day', () => {
    expect(share(specimens, (s) => hour(s.registeredAt) >= 7 && hour(s.registeredAt) < 12)).toBeGreaterThan(0.55);
    expect(share(specimens, (s) => hour(s.registeredAt) >= 12.5 && hour(s.registeredAt) < 17.5)).toBeGreaterThan(0.18);
    expect(specimens.every((s) => hour(s.registeredAt) >= 7 && hour(s.registeredAt) <= 22.5)).toBe(true);
    for (const s of specimens) {
      expect(s.collectedAt.getTime()).toBeGreaterThan(s.registeredAt.getTime());
      expect(s.receivedAt.getTime() - s.collectedAt.getTime()).toBeGreaterThanOrEqual(15 * 60_000);
      expect(s.receivedAt.getTime() - s.collectedAt.getTime()).toBeLessThanOrEqual(240 * 60_000);
    }
    // Each day's specimens are that day's, in the order they come in.
    plans.forEach((p, d) => {
      expect(p.specimens.every((s) => s.registeredAt.getDate() === new Date(2026, 9, 1 + d).getDate())).toBe(true);
      const times = p.specimens.map((s) => s.registeredAt.getTime());
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    });
  });

  it('spreads values as a population does: mostly in range, some high or low, a few critical', () => {
    const values = (code: string) => specimens.flatMap((s) => (s.values[code] === undefined ? [] : [s.values[code]!]));
    const wbc = values('WBC');
    expect(share(wbc, (v) => v > 9.5)).toBeGreaterThan(0.07);
    expect(share(wbc, (v) => v > 9.5)).toBeLessThan(0.2);
    expect(share(wbc, (v) => v >= 3.5 && v <= 9.5)).toBeGreaterThan(0.75);
    const hgb = values('HGB');
    // Critically low haemoglobin: a handful a month, not none and not many.
    expect(hgb.filter((v) => v < 50).length).toBeGreaterThan(3);
    expect(share(hgb, (v) => v < 50)).toBeLessThan(0.03);
    const alt = values('ALT').sort((a, b) => a - b);
    expect(alt[Math.floor(alt.length / 2)]).toBeGreaterThan(17);
    expect(alt[Math.floor(alt.length / 2)]).toBeLessThan(26);
    expect(share(alt, (v) => v > 40)).toBeGreaterThan(0.05);
    // Values as the instrument reports them: the item's decimals.
    expect(values('TSH').every((v) => Number(v.toFixed(ITEMS.TSH!.decimals)) === v)).toBe(true);
    // A blood count is whole blood; the serum panels share a tube.
    for (const s of specimens) expect(s.specimenType).toBe(s.panels.includes('血常规') ? '全血' : '血清');
    expect(share(specimens, (s) => s.rejected)).toBeLessThan(0.04);
    expect(share(specimens, (s) => s.entry === 'special')).toBeGreaterThan(0.08);
  });

  it('sends from every hospital, the first most', () => {
    const from = (h: number) => specimens.filter((s) => s.hospital === h).length;
    expect([0, 1, 2, 3, 4].every((h) => from(h) > 0)).toBe(true);
    expect(from(0)).toBeGreaterThan(from(4));
  });

  it('runs QC twice a day per plan, in control but for one Westgard violation with a rerun', () => {
    const runs = qcRunsOf(size, first);
    expect(runs).toHaveLength(30);
    const all = runs.flat();
    expect(all.filter((r) => r.violation)).toHaveLength(1);
    expect(all.length).toBe(QC.length * 2 * 30 + 1);
    const violation = all.find((r) => r.violation)!;
    expect(Math.abs(violation.z)).toBeGreaterThan(3);
    QC.forEach((_, qc) => {
      const zs = all.filter((r) => r.qc === qc && !r.violation).map((r) => r.z);
      expect(zs.every((z) => Math.abs(z) < 2)).toBe(true);
      for (let i = 9; i < zs.length; i++) {
        const ten = zs.slice(i - 9, i + 1);
        expect(ten.every((z) => z > 0) || ten.every((z) => z < 0)).toBe(false);
      }
      for (let i = 3; i < zs.length; i++)
        expect(zs.slice(i - 3, i + 1).every((z) => z > 1) || zs.slice(i - 3, i + 1).every((z) => z < -1)).toBe(false);
    });
  });

  it('ends yesterday', () => {
    expect(firstDayOf(30, new Date(2026, 10, 26, 10))).toEqual(new Date(2026, 9, 27));
  });
});

describe('LIMS_DEMO_MONTH', () => {
  it('reads DAYSxPER_DAY, 0 for none, the default when unset', () => {
    expect(monthSizeOf('3x20', 5)).toEqual({ days: 3, perDay: 20, seed: 5 });
    expect(monthSizeOf('0')).toBeUndefined();
    expect(monthSizeOf(undefined)).toMatchObject({ days: 30, perDay: 200 });
  });

  it('refuses anything else, saying what it takes', () => {
    for (const bad of ['30', '30x', 'x20', '0x20', '30*20', 'lots'])
      expect(() => monthSizeOf(bad)).toThrow(
        `LIMS_DEMO_MONTH must be DAYSxPER_DAY (e.g. 30x200) or 0 for no demo month, not "${bad}"`,
      );
  });
});

describe('the courier boxes and label runs of a planned day', () => {
  it('puts every courier specimen in one box, sealed after its tubes are drawn and received a while later', () => {
    for (const plan of plans.slice(0, 5)) {
      const boxes = courierBoxes(plan.specimens);
      const boxed = boxes.flatMap((b) => b.specimens);
      expect(new Set(boxed).size).toBe(boxed.length);
      expect(boxed.length).toBe(plan.specimens.filter(byCourier).length);
      for (const box of boxes) {
        expect(new Set(box.specimens.map((s) => s.hospital))).toEqual(new Set([box.hospital]));
        for (const s of box.specimens) expect(box.sentAt.getTime()).toBeGreaterThan(s.collectedAt.getTime());
        expect(box.receivedAt.getTime() - box.sentAt.getTime()).toBeGreaterThanOrEqual(15 * 60_000);
      }
    }
    // A share of the day, never the rejected or the special entries.
    const courier = share(specimens, byCourier);
    expect(courier).toBeGreaterThan(0.1);
    expect(courier).toBeLessThan(0.6);
    expect(specimens.filter(byCourier).some((s) => s.rejected || s.entry === 'special')).toBe(false);
  });

  it('prints every label once, after its registration and before its tube is drawn, in runs of one clerk', () => {
    for (const plan of plans.slice(0, 5)) {
      const runs = labelRuns(plan.specimens);
      expect(runs.flatMap((r) => r.specimens).sort((a, b) => a.key.localeCompare(b.key))).toEqual(
        [...plan.specimens].sort((a, b) => a.key.localeCompare(b.key)),
      );
      for (const run of runs) {
        expect(new Set(run.specimens.map((s) => s.entry)).size).toBe(1);
        for (const s of run.specimens) {
          expect(run.at.getTime()).toBeGreaterThanOrEqual(s.registeredAt.getTime());
          expect(run.at.getTime()).toBeLessThan(s.collectedAt.getTime());
        }
      }
      // Batched: fewer runs than tubes on a busy morning.
      expect(runs.length).toBeLessThan(plan.specimens.length * 0.8);
    }
  });
});

describe("an approver's batches", () => {
  it("hold the results of a screenful of specimens, a specimen's results never split", () => {
    const results = [1, 1, 2, 3, 3, 3, 4, 5, 2].map((n, i) => ({ id: i + 1, barcode: `B${n}` }));
    const batches = bySpecimens(results, 2);
    expect(batches.map((b) => b.map((r) => r.barcode))).toEqual([
      ['B1', 'B1', 'B2', 'B2'],
      ['B3', 'B3', 'B3', 'B4'],
      ['B5'],
    ]);
    expect(
      batches
        .flat()
        .map((r) => r.id)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
