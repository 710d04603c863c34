import { expect } from 'vitest';
import type { api } from './client';

type Client = ReturnType<typeof api>;

/** The id of the lab's record of a resource with this name (a group, a purpose). */
export async function idByName(who: Client, resource: string, name: string): Promise<number> {
  const page = await who.get<{ records: { id: number }[] }>(
    `/api/resources/${resource}?name=${encodeURIComponent(name)}&size=1`,
  );
  return page.body.resultObject.records[0]!.id;
}

/** Inspection authority (检验权限) of an account for a group's items, valid for years. */
export async function grantAuthority(
  admin: Client,
  userAccount: string,
  group: number,
  abilities: { canTest?: boolean; canReview?: boolean; canAudit?: boolean },
): Promise<void> {
  const res = await admin.post('/api/resources/inspectionAuthority', {
    userAccount,
    userName: userAccount,
    professionalGroup: group,
    validUntil: '2099-12-31',
    ...abilities,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
