import { expect } from 'vitest';
import type { api } from './client';

type Client = ReturnType<typeof api>;

/** Specimens entered at the front desk with the first hospital, purpose and type of the lab: their barcodes. */
export async function enterSpecimens(who: Client, n: number, values: Record<string, unknown> = {}): Promise<string[]> {
  const first = async (resource: string) =>
    (await who.get<{ records: { id: number }[] }>(`/api/resources/${resource}?size=1`)).body.resultObject.records[0]!
      .id;
  const body = {
    patientName: '测试患者',
    sex: 'female',
    age: 35,
    hospital: await first('referralHospital'),
    purposes: [await first('inspectionPurpose')],
    specimenType: await first('specimenType'),
    collectedAt: '2026-11-24 08:00:00',
    ...values,
  };
  const barcodes: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await who.post<{ barcode: string }>('/api/resources/specimen', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    barcodes.push(res.body.resultObject.barcode);
  }
  return barcodes;
}
