import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMonth, type MadeMonth } from '../support/demo-month';

/**
 * QC over a stretch long enough for the control lots to establish their own targets (20 runs, ten days)
 * and run on against them: the month stays in control but for its one planned violation, so no
 * result is held for QC the lab never concluded. (A month planned against the insert sheet's target
 * alone drifted into 1-2s warnings and a 10x that held a week of haemoglobin results.)
 */
let month: MadeMonth;

beforeAll(async () => {
  month = await makeMonth({ days: 16, perDay: 1, seed: 11 });
}, 600_000);

afterAll(async () => {
  await month?.dispose();
});

describe("the demo month's QC after the lots establish their targets", () => {
  it('flags the planned violation alone, and leaves no result waiting', async () => {
    const established = await month.db.query<{ name: string }>(
      `select data->>'name' as name from resource_record where resource = 'qcMaterial' and data ? 'establishedMean'`,
    );
    expect(established.length).toBeGreaterThanOrEqual(5);
    // The month's runs: the demo's own few QC points from before it are not its doing.
    const flagged = await month.db.query<{ runAt: string; violations: string }>(
      `select data->>'runAt' as "runAt", data->>'violations' as violations from resource_record
        where resource = 'qcResult' and coalesce(data->>'violations', '') <> ''
          and data->>'runAt' >= (select first_day::text from demo_month)`,
    );
    expect(flagged).toEqual([expect.objectContaining({ violations: expect.stringContaining('1-3s') })]);
    expect(month.result.refused).toBe(0);
  });
});
