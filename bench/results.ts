import { DEMO_PASSWORD } from '../tests/support/server';
import { api, tokenFor } from '../tests/support/client';
import { enterSpecimens } from '../tests/support/specimens';
import { grantAuthority, idByName } from '../tests/support/results';
import { createRole, createUser, STAFF_PASSWORD } from '../tests/support/workflow';
import { ms, personReading, type Bench } from './measure';
import { openBenchServer } from './resources';

const SPECIMENS = Number(process.env.BENCH_WORKSHEET_SPECIMENS) || 96;
const ITEMS = 10;

type Client = ReturnType<typeof api>;
type Page = { records: { id: number; data?: unknown }[] };
type Pending = { id: number; labels: { item: string } };

/** A purpose ordering ten items of the clinical group (two of the demo's, eight made here with ranges). */
async function tenItemPurpose(admin: Client): Promise<number> {
  const group = await idByName(admin, 'professionalGroup', '临检组');
  const specimenType = await idByName(admin, 'specimenType', '全血');
  const items = [
    await idByName(admin, 'inspectionItem', '白细胞计数'),
    await idByName(admin, 'inspectionItem', '血红蛋白'),
  ];
  for (let i = items.length; i < ITEMS; i++) {
    const res = await admin.post<{ id: number }>('/api/resources/inspectionItem', {
      code: `BENCH${i}`,
      name: `基准项目${i}`,
      specimenType,
      method: 'impedance',
      resultType: 'numeric',
      unit: 'U/L',
      decimals: 1,
      referenceRanges: [{ sex: 'all', lower: 10, upper: 40 }],
      tatHours: 2,
      professionalGroup: group,
    });
    items.push(res.body.resultObject.id);
  }
  const purpose = await admin.post<{ id: number }>('/api/resources/inspectionPurpose', {
    code: 'BENCH-P',
    name: '基准组合',
    category: '1',
    items,
    specimenType,
    professionalGroup: group,
  });
  return purpose.body.resultObject.id;
}

/** Received specimens of that purpose: their pending results, ten each, with their item's name. */
async function pendingResults(admin: Client, editor: Client, purpose: number): Promise<Pending[]> {
  const barcodes = await enterSpecimens(editor, SPECIMENS, { purposes: [purpose] });
  const pending: Pending[] = [];
  for (const barcode of barcodes) {
    const specimen = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject
      .records[0]!;
    await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {});
    const results = (
      await admin.get<{ records: Pending[] }>(`/api/resources/inspectionResult?barcode=${barcode}&size=50`)
    ).body.resultObject.records;
    pending.push(...results);
  }
  return pending;
}

/**
 * A value out of its item's auto-verify range (flagged H), so each result waits for a person's review,
 * and below its critical limit, which would need an acknowledgement before any approval.
 */
function highValue(result: Pending, i: number): string {
  if (result.labels.item === '白细胞计数') return '12.3';
  if (result.labels.item === '血红蛋白') return '180';
  return String(41 + (i % 50));
}

/**
 * How long a call takes, and how long another person's list page waits meanwhile (read every 50 ms):
 * on the embedded database a long transaction makes everyone wait.
 */
async function whileAPersonReads(admin: Client, call: () => Promise<unknown>) {
  const person = personReading((n) => admin.get(`/api/resources/specimen?size=20&page=${1 + (n % 3)}`), 50);
  const start = performance.now();
  await call();
  const took = performance.now() - start;
  return { took, waits: await person.stop() };
}

/**
 * Results: saving a full worksheet (96 specimens × 10 items, one call, every value interpreted and
 * checked against the audit rules, all or none), and issuing reports when the last approval of each
 * specimen comes, per report and per second; then one signature of many specimens, how long a person's
 * list page waits meanwhile, and how long after its answer the reports' PDFs (drawn in the background)
 * are all kept.
 */
export const resultsBench: Bench = {
  title: `Results: a ${SPECIMENS} × ${ITEMS} worksheet saved, and reports issued (PGlite)`,
  async run() {
    const { app, db, close } = await openBenchServer(undefined);
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const admin = api(url, await tokenFor(url, 'admin', DEMO_PASSWORD));
      const editor = api(url, await tokenFor(url, 'editor', DEMO_PASSWORD));
      // The auditor: another account than the tester (editor) and the first reviewer (admin).
      await createUser(admin, 'benchaudit', [await createRole(admin, '基准审核', [20701])]);
      await grantAuthority(admin, 'benchaudit', await idByName(admin, 'professionalGroup', '临检组'), {
        canAudit: true,
      });
      const auditor = api(url, await tokenFor(url, 'benchaudit', STAFF_PASSWORD));
      const pending = await pendingResults(admin, editor, await tenItemPurpose(admin));
      const ids = pending.map((r) => r.id);
      const rows = pending.map((r, i) => ({ id: r.id, result: highValue(r, i) }));
      const saveStart = performance.now();
      const saved = await editor.post('/api/results/worksheet', { rows });
      const save = performance.now() - saveStart;
      if (saved.body.resultCode !== 200) throw new Error(`worksheet refused: ${saved.body.resultMessage}`);
      const reviewed = await admin.post('/api/results/approve/firstReview', { ids, password: DEMO_PASSWORD });
      if (reviewed.body.resultCode !== 200) throw new Error(`first review refused: ${reviewed.body.resultMessage}`);
      // The audit of each specimen's ten results issues its report: the call's time is mostly the reports.
      // Half the specimens one call each; the other half in one signature, while a person reads a list page.
      const half = (SPECIMENS / 2) * ITEMS;
      const reportStart = performance.now();
      for (let i = 0; i < half; i += ITEMS) {
        const signed = await auditor.post('/api/results/approve/audit', {
          ids: ids.slice(i, i + ITEMS),
          password: STAFF_PASSWORD,
        });
        if (signed.body.resultCode !== 200) throw new Error(`signature refused: ${signed.body.resultMessage}`);
      }
      const reporting = performance.now() - reportStart;
      const { took, waits } = await whileAPersonReads(admin, async () => {
        const signed = await auditor.post('/api/results/approve/audit', {
          ids: ids.slice(half),
          password: STAFF_PASSWORD,
        });
        if (signed.body.resultCode !== 200) throw new Error(`signature refused: ${signed.body.resultMessage}`);
      });
      // The reports' PDFs are drawn in the background after the answers (kernel/files): until all are kept.
      const answered = performance.now();
      while ((await db.query('select 1 from record_file_pending limit 1')).length > 0)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const drawn = performance.now() - answered;
      return [
        [`worksheet save, ${rows.length} results in one call`, `${ms(save)} (${ms(save / rows.length)} per result)`],
        [`audit + report issued, per specimen (${SPECIMENS / 2}, a call each)`, ms(reporting / (SPECIMENS / 2))],
        ['reports issued per second (audit call included)', `${(SPECIMENS / 2 / (reporting / 1000)).toFixed(1)} /s`],
        [`one signature of ${SPECIMENS / 2} specimens: its answer`, ms(took)],
        ["  its reports' PDFs all kept, after the answer", ms(drawn)],
        [
          "  a person's list page meanwhile (every 50 ms): p50 / max",
          `${ms(waits[Math.floor(waits.length / 2)] ?? 0)} / ${ms(waits.at(-1) ?? 0)} (${waits.length} calls)`,
        ],
      ];
    } finally {
      await close();
    }
  },
};
