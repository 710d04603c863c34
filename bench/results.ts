import { DEMO_PASSWORD } from '../tests/support/server';
import { api, tokenFor } from '../tests/support/client';
import { enterSpecimens } from '../tests/support/specimens';
import { grantAuthority, idByName } from '../tests/support/results';
import { createRole, createUser, STAFF_PASSWORD } from '../tests/support/workflow';
import { ms, type Bench } from './measure';
import { openBenchServer } from './resources';

const SPECIMENS = Number(process.env.BENCH_WORKSHEET_SPECIMENS) || 96;
const ITEMS = 10;

type Client = ReturnType<typeof api>;
type Page = { records: { id: number; data?: unknown }[] };

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

/** Received specimens of that purpose: their pending results, ten each. */
async function pendingResults(admin: Client, editor: Client, purpose: number): Promise<number[]> {
  const barcodes = await enterSpecimens(editor, SPECIMENS, { purposes: [purpose] });
  const ids: number[] = [];
  for (const barcode of barcodes) {
    const specimen = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject
      .records[0]!;
    await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {});
    const results = (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}&size=50`)).body
      .resultObject.records;
    ids.push(...results.map((r) => r.id));
  }
  return ids;
}

/**
 * Results: saving a full worksheet (96 specimens × 10 items, one call, every value interpreted and
 * checked against the audit rules, all or none), and issuing reports (the PDF kept with the record)
 * when the last approval of each specimen comes, per report and per second.
 */
export const resultsBench: Bench = {
  title: `Results: a ${SPECIMENS} × ${ITEMS} worksheet saved, and reports issued (PGlite)`,
  async run() {
    const { app, close } = await openBenchServer(undefined);
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
      const ids = await pendingResults(admin, editor, await tenItemPurpose(admin));
      // Values out of every auto-verify range (flagged H), so each result waits for a person's review.
      const rows = ids.map((id, i) => ({ id, result: String(41 + (i % 50)) }));
      const saveStart = performance.now();
      const saved = await editor.post('/api/results/worksheet', { rows });
      const save = performance.now() - saveStart;
      if (saved.body.resultCode !== 200) throw new Error(`worksheet refused: ${saved.body.resultMessage}`);
      await admin.post('/api/results/approve/firstReview', { ids, password: DEMO_PASSWORD });
      // The audit of each specimen's ten results issues its report: the call's time is mostly the reports.
      const reportStart = performance.now();
      for (let i = 0; i < ids.length; i += ITEMS)
        await auditor.post('/api/results/approve/audit', { ids: ids.slice(i, i + ITEMS), password: STAFF_PASSWORD });
      const reporting = performance.now() - reportStart;
      return [
        [`worksheet save, ${rows.length} results in one call`, `${ms(save)} (${ms(save / rows.length)} per result)`],
        [`audit + report issued, per specimen (${SPECIMENS})`, ms(reporting / SPECIMENS)],
        ['reports issued per second (audit call included)', `${(SPECIMENS / (reporting / 1000)).toFixed(1)} /s`],
      ];
    } finally {
      await close();
    }
  },
};
