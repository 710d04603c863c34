import { Staff, type Workplace } from './api.js';

/**
 * The people of the generated lab (the demo's first lab): the demo accounts at the front desk and
 * auditing, and the staff the generator takes on through the user screens, each with the inspection
 * authority of their work. They sign in with the demo password, so a visitor can sign in as any of them.
 */
export interface Crew {
  admin: Staff;
  /** Front desk (王检验, the demo's editor). */
  desk: Staff;
  /** Special entry: emergencies and late registrations. */
  clerk: Staff;
  /** Enters the instruments' results and acknowledges critical values by phoning the ward. */
  tester: Staff;
  /** First reviews and audits, two people each taking turns (a result is never approved twice by one person). */
  reviewers: [Staff, Staff];
  auditors: [Staff, Staff];
}

export const GROUPS = ['临检组', '生化组', '免疫组'] as const;

const HIRED: { account: string; name: string; ability?: 'canTest' | 'canReview' | 'canAudit' }[] = [
  { account: 'zhangli', name: '张丽' },
  { account: 'hejing', name: '何静', ability: 'canTest' },
  { account: 'chengang', name: '陈刚', ability: 'canReview' },
  { account: 'lijuan', name: '李娟', ability: 'canReview' },
  { account: 'zhoumin', name: '周敏', ability: 'canAudit' },
];

type Page<T> = { records: T[] };

/** Takes on the staff the lab lacks (a restart finds them there) and signs everyone in. */
export async function crewOf(app: Workplace, password: string): Promise<Crew> {
  const admin = await new Staff(app, 'admin', password).signIn();
  const roles = (await admin.get<Page<{ id: number; code: string }>>('/api/resources/role?size=100')).records;
  const role = roles.find((r) => r.code === 'admin') ?? roles[0];
  if (!role) throw new Error('the lab has no role to give its staff');
  const groups = await groupIds(admin);
  type Authority = { userAccount: string; professionalGroup: number } & Record<string, unknown>;
  const granted = (await admin.get<Page<Authority>>('/api/resources/inspectionAuthority?size=1000')).records;
  const holds = (account: string, group: number, ability: string) =>
    granted.some((a) => a.userAccount === account && Number(a.professionalGroup) === group && a[ability] === true);
  const signedIn = new Map<string, Staff>();
  for (const person of HIRED) {
    const staff = new Staff(app, person.account, password);
    const exists = await staff.signIn().then(
      () => true,
      () => false,
    );
    if (!exists) {
      await admin.post('/api/user', {
        userAccount: person.account,
        userName: person.name,
        password,
        roleIds: [role.id],
      });
      await staff.signIn();
    }
    for (const group of GROUPS)
      if (person.ability && !holds(person.account, groups[group], person.ability))
        await admin.post('/api/resources/inspectionAuthority', {
          userAccount: person.account,
          userName: person.name,
          professionalGroup: groups[group],
          [person.ability]: true,
          validUntil: '2099-12-31',
        });
    signedIn.set(person.account, staff);
  }
  const get = (account: string) => signedIn.get(account)!;
  return {
    admin,
    desk: await new Staff(app, 'editor', password).signIn(),
    clerk: get('zhangli'),
    tester: get('hejing'),
    reviewers: [get('chengang'), get('lijuan')],
    auditors: [get('zhoumin'), admin],
  };
}

export async function groupIds(admin: Staff): Promise<Record<(typeof GROUPS)[number], number>> {
  const all = (await admin.get<Page<{ id: number; name: string }>>('/api/resources/professionalGroup?size=100'))
    .records;
  const of = (name: string) => {
    const found = all.find((g) => g.name === name);
    if (!found) throw new Error(`the lab has no professional group ${name}`);
    return found.id;
  };
  return { 临检组: of('临检组'), 生化组: of('生化组'), 免疫组: of('免疫组') };
}
