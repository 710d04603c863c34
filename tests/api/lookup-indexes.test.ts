import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/server/kernel/db/database';
import { RecordStore, type ResourceName } from '../../src/server/kernel/resources/store';
import { prepareData, type PreparedData } from '../support/in-process';

/**
 * The lookups the server's own rules make at each step among records that grow with the lab's work
 * (a specimen by barcode, the patient's previous result, an isolate's susceptibility results, a QC
 * plan's latest run) are answered off an index of the resource's partition. A lab of millions of
 * results would otherwise read the whole partition at every result entered. Checked by the plan the
 * database makes once each resource holds thousands of rows: the looked-up field's index narrows the rows.
 */
let prepared: PreparedData;
let db: Database;
let records: RecordStore;

beforeAll(async () => {
  prepared = await prepareData('lims-lookups-');
  db = prepared.db;
  records = new RecordStore(prepared.screens);
  // Three thousand rows of each resource looked up, the looked-up field taking six hundred values.
  for (const [resource, fields] of Object.entries(rowsToMake()))
    await db.query(
      `insert into resource_record (resource, org_id, data)
       select $1, 1, (select jsonb_object_agg(f, (i % 600)::text) from unnest($2::text[]) f) from generate_series(1, 3000) i`,
      [resource, fields],
    );
  await db.query('analyze resource_record');
});
afterAll(() => prepared?.close());

/** Each resource's fields the lookups name. */
function rowsToMake(): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [, resource, where, , options] of LOOKUPS)
    fields[resource] = [...new Set([...(fields[resource] ?? []), ...Object.keys(where), options?.orderBy ?? 'id'])];
  for (const [, resource, field] of NUMBERED) fields[resource] = [...new Set([...(fields[resource] ?? []), field])];
  return fields;
}

/** The plan the database makes for the statement a lookup sends. */
async function planOf(lookup: (q: Queryable) => Promise<unknown>): Promise<string> {
  let made: { sql: string; params?: unknown[] } | undefined;
  await lookup({
    async query<Row>(sql: string, params?: unknown[]) {
      made = { sql, params };
      return [] as Row[];
    },
    exec: () => Promise.resolve(),
  });
  const rows = await db.query<{ 'QUERY PLAN': string }>(`explain ${made!.sql}`, made!.params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

type Lookup = [
  what: string,
  resource: ResourceName,
  where: Record<string, unknown>,
  /** The field whose index must narrow the rows read (not an index read whole, filtered row by row). */
  by: string,
  options?: { orderBy?: string; order?: 'desc'; limit?: number },
];

const LOOKUPS: Lookup[] = [
  ['a specimen by its barcode', 'specimen', { barcode: ['7'] }, 'barcode'],
  ['a specimen’s results', 'inspectionResult', { barcode: ['7'] }, 'barcode'],
  [
    "the patient's previous approved result of the item (delta check)",
    'inspectionResult',
    { patientName: ['7'], item: [7], sex: ['7'], status: ['7', 'published'] },
    'patientName',
    { orderBy: 'testedAt', order: 'desc', limit: 2 },
  ],
  ['a specimen’s report', 'reportRecord', { barcode: ['7'] }, 'barcode'],
  ['a specimen’s isolates (the next isolate number)', 'isolate', { specimen: 7 }, 'specimen'],
  ['an isolate’s susceptibility results', 'susceptibilityResult', { isolate: 7 }, 'isolate'],
  ['the slides cut from a block', 'pathologyOperation', { block: ['7'] }, 'block'],
  [
    'a QC plan’s latest run (QC hold)',
    'qcResult',
    { plan: [7] },
    'plan',
    { orderBy: 'runAt', order: 'desc', limit: 1 },
  ],
];

/** The numbers of the day after a prefix (the last report number of the day), its field's values as the rows have them. */
const NUMBERED: [what: string, resource: ResourceName, field: string][] = [
  ['the day’s last report number', 'reportRecord', 'reportNo'],
  ['the day’s last handover number', 'handoverRecord', 'handoverNo'],
  ['the last statement number', 'reconciliation', 'statementNo'],
];

describe('lookups among the records a lab piles up', () => {
  it.each(LOOKUPS)('%s is answered off an index', async (_what, resource, where, by, options) => {
    const plan = await planOf((q) => records.find(q, resource, 1, where as never, options as never));
    expect(plan).not.toContain('Seq Scan');
    // The index condition names the field: the index narrows the rows, rather than being read whole.
    expect(plan).toMatch(new RegExp(`(Index|Recheck) Cond: .*data ->> '${by}'`));
  });

  // Numbers sort after their older ones (the prefix holds the date): '99' is the latest prefix here.
  it.each(NUMBERED)(
    '%s is read from the prefix on, off an index, whatever the collation',
    async (_w, resource, field) => {
      const plan = await planOf((q) => records.lastNumber(q, resource, 1, field as never, '99'));
      expect(plan).not.toContain('Seq Scan');
      expect(plan).toMatch(new RegExp(`(Index|Recheck) Cond: .*data ->> '${field}'`));
    },
  );
});
