import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { CAPABILITIES } from '../src/server/capabilities';
import { chargeSpecimen } from '../src/server/finance/charges';
import type { Capability } from '../src/server/kernel/capability';
import { readConfig } from '../src/server/kernel/config';
import type { Kernel } from '../src/server/kernel/context';
import { PushHub } from '../src/server/kernel/push/hub';
import type { StoredRecord } from '../src/server/kernel/resources/repository';
import { prepare } from '../src/server/startup';
import { api, tokenFor } from '../tests/support/client';
import { idByName } from '../tests/support/results';
import { DEMO_PASSWORD } from '../tests/support/server';
import { enterSpecimens } from '../tests/support/specimens';
import { ms, type Bench } from './measure';
import { answers, POSTGRES_ADMIN_URL, scratchDatabase } from './resources';

const SPECIMENS = Number(process.env.BENCH_CHARGE_SPECIMENS) || 300;

type Client = ReturnType<typeof api>;

/** The bench's server, with the kernel in reach so the charge step can be timed alone. */
async function openServer(databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lims-bench-'));
  const config = {
    ...readConfig({ LIMS_DATA_DIR: dataDir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD, DATABASE_URL: databaseUrl, PORT: '0' }),
    logLevel: 'error',
  };
  const { db, screens } = await prepare(config);
  const push = await PushHub.open(db, { databaseUrl: config.databaseUrl });
  let kernel: Kernel | undefined;
  const probe: Capability = {
    name: 'benchProbe',
    routes: (_app, k) => {
      kernel = k;
    },
  };
  const app = await buildApp({ db, config, now: () => new Date(), screens, push }, [...CAPABILITIES, probe]);
  return {
    db,
    app,
    kernel: () => kernel!,
    async close() {
      await app.close();
      await push.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A hospital with an agreed price and a discount, and what each specimen orders: 肝功能 (agreed price),
 * 血常规 (catalogue, discounted) and a purpose billed item by item (two items): four charge lines.
 */
async function priceList(admin: Client): Promise<{ hospital: number; purposes: number[] }> {
  const post = async (resource: string, body: Record<string, unknown>) =>
    (await admin.post<{ id: number }>(`/api/resources/${resource}`, body)).body.resultObject.id;
  const hospital = await post('referralHospital', {
    code: 'BENCH-H',
    name: '基准医院',
    level: '2A',
    settlement: 'monthly',
    reportDelivery: 'online',
  });
  await post('itemPrice', {
    itemCode: 'SH-GGN',
    itemName: '肝功能',
    hospital,
    priceType: 'agreement',
    standardPrice: 36,
    settlementPrice: 30.5,
    effectiveFrom: '2020-01-01',
  });
  await post('discount', {
    name: '基准折扣',
    hospital,
    scope: 'all',
    discountRate: 88.5,
    validFrom: '2020-01-01',
    approvedBy: '基准',
  });
  const items = await post('inspectionPurpose', {
    code: 'BENCH-DJ',
    name: '基准逐项',
    category: '1',
    items: [await idByName(admin, 'inspectionItem', '葡萄糖'), await idByName(admin, 'inspectionItem', '肌酐')],
    specimenType: await idByName(admin, 'specimenType', '血清'),
    professionalGroup: await idByName(admin, 'professionalGroup', '生化组'),
  });
  return {
    hospital,
    purposes: [
      await idByName(admin, 'inspectionPurpose', '肝功能'),
      await idByName(admin, 'inspectionPurpose', '血常规'),
      items,
    ],
  };
}

const perSpecimen = (label: string, total: number, n: number): [string, string][] => [
  [`${label}: per specimen`, ms(total / n)],
  [`${label}: specimens per second`, `${(n / (total / 1000)).toFixed(1)} /s`],
];

/**
 * Charge creation: specimens entered at the front desk (the whole write, charges included), then the
 * charge step alone for the same specimens (its lines removed in this scratch database and written again,
 * one transaction per specimen, as the entry runs it), then a recalculation and a statement over them.
 */
async function chargeBench(databaseUrl: string | undefined): Promise<[string, string][]> {
  const { db, app, kernel, close } = await openServer(databaseUrl);
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = api(url, await tokenFor(url, 'admin', DEMO_PASSWORD));
    const { hospital, purposes } = await priceList(admin);

    const entryStart = performance.now();
    const barcodes = await enterSpecimens(admin, SPECIMENS, { hospital, purposes });
    const entry = performance.now() - entryStart;
    const [count] = await db.query<{ n: number }>('select count(*)::int as n from charge_line where hospital_id = $1', [
      hospital,
    ]);
    const lines = count?.n ?? 0;

    // The charge step alone: same specimens, their lines written again.
    const k = kernel();
    const specimens = await k.records.find(db, 'specimen', 1, { barcode: barcodes });
    await db.query('delete from charge_line where hospital_id = $1', [hospital]);
    const actor = { id: 1, userName: '基准' };
    const chargeStart = performance.now();
    for (const specimen of specimens)
      await db.transaction((tx) => chargeSpecimen(k, tx, specimen as unknown as StoredRecord, actor));
    const charging = performance.now() - chargeStart;

    // A price change recalculated over every specimen's lines, then the month's statement.
    const price = (
      await admin.get<{ records: { id: number; version: number }[] }>(
        `/api/resources/itemPrice?itemCode=SH-GGN&hospital=${hospital}`,
      )
    ).body.resultObject.records[0]!;
    await admin.put(`/api/resources/itemPrice/${price.id}`, { ...price, settlementPrice: 31 });
    const request = await admin.post<{ id: number }>('/api/resources/priceRecalculation', {
      hospital,
      periodFrom: '2020-01-01',
      periodTo: '2099-12-31',
    });
    const recalcStart = performance.now();
    const run = await admin.post<{ affectedRecords: number }>(
      `/api/finance/priceRecalculation/${request.body.resultObject.id}/run`,
    );
    const recalc = performance.now() - recalcStart;
    const statementStart = performance.now();
    const statement = await admin.post<{ lineCount: number }>('/api/resources/reconciliation', {
      hospital,
      periodFrom: '2020-01-01',
      periodTo: '2099-12-31',
    });
    const statementMs = performance.now() - statementStart;
    return [
      [`specimens, ${lines / SPECIMENS} charge lines each (${db.kind})`, String(SPECIMENS)],
      ...perSpecimen('entry with its charges (API)', entry, SPECIMENS),
      ...perSpecimen('charge step alone', charging, SPECIMENS),
      [
        `recalculation: ${run.body.resultObject.affectedRecords} lines changed`,
        `${ms(recalc)} (${((run.body.resultObject.affectedRecords / recalc) * 1000).toFixed(0)} lines/s)`,
      ],
      [`statement of ${statement.body.resultObject.lineCount} lines`, ms(statementMs)],
    ];
  } finally {
    await close();
  }
}

export const chargesBench: Bench = {
  title: `Charges: charge creation per specimen (${SPECIMENS} specimens; PGlite, PostgreSQL), recalculation and statement over them`,
  async run() {
    const rows = await chargeBench(undefined);
    if (!(await answers(POSTGRES_ADMIN_URL)))
      return [...rows, ['PostgreSQL', `not answering at ${new URL(POSTGRES_ADMIN_URL).host}: skipped`]];
    const scratch = await scratchDatabase(POSTGRES_ADMIN_URL);
    try {
      return [...rows, ...(await chargeBench(scratch.url))];
    } finally {
      await scratch.drop();
    }
  },
};
