import { expect } from 'vitest';
import { api as apiClient, tokenFor, type api } from './client';
import { createRole, createUser, STAFF_PASSWORD } from './workflow';

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

/** An account besides the demo's that may audit the clinical group (临检组): signed in, and the role it holds. */
export async function clinicalAuditor(
  url: string,
  admin: Client,
  account = 'shenhe',
): Promise<{ auditor: Client; role: number }> {
  const role = await createRole(admin, `审核岗 ${account}`, [20701]);
  await createUser(admin, account, [role]);
  await grantAuthority(admin, account, await idByName(admin, 'professionalGroup', '临检组'), { canAudit: true });
  return { auditor: apiClient(url, await tokenFor(url, account, STAFF_PASSWORD)), role };
}
