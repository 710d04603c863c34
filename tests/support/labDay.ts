import { expect } from 'vitest';
import { api, tokenFor } from './client';
import { DEMO_PASSWORD } from './server';
import { enterSpecimens } from './specimens';
import { STAFF_PASSWORD } from './workflow';
import { clinicalAuditor, idByName } from './results';

type Client = ReturnType<typeof api>;
type Page = { records: { id: number; labels?: { item?: string } }[] };

/** A specimen collected, received, tested, reviewed and audited: reported, every step an event of its own. */
async function reported(who: { editor: Client; admin: Client; auditor: Client }, barcode: string) {
  const { editor, admin, auditor } = who;
  const [specimen] = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject.records;
  for (const step of ['collect', 'receive'])
    expect((await editor.post(`/api/resources/specimen/${specimen!.id}/transitions/${step}`, {})).status).toBe(200);
  const results = (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}`)).body.resultObject
    .records;
  const rows = results.map((r) => ({ id: r.id, result: r.labels?.item === '白细胞计数' ? '6.1' : '138' }));
  expect((await editor.post('/api/results/worksheet', { rows })).status).toBe(200);
  // What the audit rules did not approve themselves is signed by two other people.
  const inState = async (state: string) =>
    (
      await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}&status=${state}`)
    ).body.resultObject.records.map((r) => r.id);
  const tested = await inState('tested');
  if (tested.length > 0) {
    const res = await admin.post('/api/results/approve/firstReview', { ids: tested, password: DEMO_PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const reviewed = await inState('firstReviewed');
  if (reviewed.length > 0) {
    const res = await auditor.post('/api/results/approve/audit', { ids: reviewed, password: STAFF_PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const [after] = (await admin.get<{ records: { status: string }[] }>(`/api/resources/specimen?barcode=${barcode}`))
    .body.resultObject.records;
  expect(after!.status).toBe('reported');
}

/**
 * A small day of the lab done through the API as its staff would (entry, collection, receipt, results,
 * review, audit), so that the statistics screens, which count only what happened, have rows to show
 * (the demo rows have no history).
 */
export async function labDay(url: string): Promise<void> {
  const admin = api(url, await tokenFor(url, 'admin', DEMO_PASSWORD));
  const editor = api(url, await tokenFor(url, 'editor', DEMO_PASSWORD));
  const { auditor } = await clinicalAuditor(url, admin, 'tongjishenhe');
  const bloodCount = await idByName(admin, 'inspectionPurpose', '血常规');
  for (const barcode of await enterSpecimens(editor, 2, { purposes: [bloodCount] }))
    await reported({ editor, admin, auditor }, barcode);
}
