import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ScreenSchema } from '../../src/shared/screens/fields';
import { migrateScreen } from '../../src/shared/screens/migrate';
import { linkFilters } from '../../src/web/screens/list/linkFilters';

/** A list opened by a link shows the rows the link counted (issue 24: the dashboard's counts link so). */
const screen = (id: string) =>
  migrateScreen(
    JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../schemas/screens/${id}.json`), 'utf8')),
  ) as unknown as ScreenSchema;
const intake = screen('front-entry');
const qc = screen('qc-result');
const results = screen('general-inspection');

describe('filters from a link', () => {
  it('opens the intake list filtered by state, as the filter bar would hold it', () => {
    expect(linkFilters(intake, '?status=received')).toEqual({ status: 'received' });
    expect(linkFilters(intake, '?status=received&barcode=2611')).toEqual({ status: 'received', barcode: '2611' });
  });

  it('reads a period written from,to or as keyFrom / keyTo, the last day of a time period whole', () => {
    expect(linkFilters(qc, '?runAt=2026-11-26,2026-11-26&status=reject')).toEqual({
      runAt: ['2026-11-26', '2026-11-26 23:59:59'],
      status: 'reject',
    });
    expect(linkFilters(qc, '?runAtFrom=2026-11-01')).toEqual({ runAt: ['2026-11-01', undefined] });
  });

  it("reads a reference as one record or any of several (a count of the user's groups)", () => {
    expect(linkFilters(results, '?professionalGroup=3,5&status=tested')).toEqual({
      professionalGroup: '3,5',
      status: 'tested',
    });
    expect(linkFilters(intake, '?purposes=7&enteredAt=2026-11-26,2026-11-26')).toEqual({
      purposes: '7',
      enteredAt: ['2026-11-26', '2026-11-26 23:59:59'],
    });
    expect(linkFilters(qc, '?plan=1,x')).toEqual({});
  });

  it('reads a yes/no filter only as true or false', () => {
    expect(linkFilters(results, '?critical=true')).toEqual({ critical: 'true' });
    expect(linkFilters(results, '?critical=yes')).toEqual({});
  });

  it('leaves out what the screen does not filter by and values its filters could not hold', () => {
    expect(linkFilters(intake, '?status=flying&patientAge=40&receivedGroup=bio&hospital=abc')).toEqual({});
    expect(linkFilters(qc, '?runAt=yesterday,2026-11-26')).toEqual({});
    expect(linkFilters(intake, '')).toEqual({});
  });
});
