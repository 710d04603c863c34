import type { Queryable } from '../kernel/db/database.js';
import { one } from '../kernel/db/database.js';
import { dictionarySources, insertDictionaryCopies } from './publicDictionaries.js';

/**
 * Demo business dictionaries (spec 7.4 dictionary/{bus}): the code lists a laboratory keeps for its
 * forms and screens, pathology's among them, in the base organisation (its public-platform set) and in
 * every lab: the main and sub labs hold synchronised copies of the base set. Seeded once per organisation: a dictionary a user deleted stays deleted (the operation log
 * remembers what was seeded), one a user changed keeps the change.
 */
const BUSINESS: { name: string; description: string; details: [label: string, value: string][] }[] = [
  {
    name: '标本拒收原因',
    description: '核收时判定不合格标本的原因',
    details: [
      ['溶血', 'HEMOLYSIS'],
      ['凝血', 'CLOTTED'],
      ['脂血', 'LIPEMIA'],
      ['标本量不足', 'INSUFFICIENT'],
      ['容器错误', 'WRONG_TUBE'],
      ['标签不清或无标签', 'UNLABELLED'],
      ['超过送检时限', 'OVERDUE'],
    ],
  },
  {
    name: '送检科室',
    description: '申请单上的送检科室',
    details: [
      ['内科', 'NK'],
      ['外科', 'WK'],
      ['妇产科', 'FCK'],
      ['儿科', 'EK'],
      ['体检科', 'TJK'],
      ['急诊科', 'JZK'],
    ],
  },
  {
    name: '结果异常标志',
    description: '检验结果与参考区间、危急值比较的标志',
    details: [
      ['正常', 'N'],
      ['偏高', 'H'],
      ['偏低', 'L'],
      ['危急值偏高', 'HH'],
      ['危急值偏低', 'LL'],
      ['异常', 'A'],
    ],
  },
  {
    name: '定性结果',
    description: '定性检验项目的结果：工作台上输入代码，报告打印文字',
    details: [
      ['阴性', '-'],
      ['阳性', '+'],
      ['弱阳性', '+-'],
      ['可疑', '?'],
    ],
  },
  {
    name: '病理染色方法',
    description: '病理切片的常规、特殊染色与免疫组化',
    details: [
      ['苏木精-伊红染色', 'HE'],
      ['过碘酸雪夫染色', 'PAS'],
      ['抗酸染色', 'AFB'],
      ['Masson三色染色', 'MASSON'],
      ['网状纤维染色', 'RETIC'],
      ['免疫组化', 'IHC'],
    ],
  },
  {
    name: '免疫组化抗体',
    description: '常用免疫组化抗体',
    details: [
      ['细胞角蛋白', 'CK'],
      ['波形蛋白', 'Vimentin'],
      ['增殖指数', 'Ki-67'],
      ['雌激素受体', 'ER'],
      ['孕激素受体', 'PR'],
      ['人表皮生长因子受体2', 'HER2'],
    ],
  },
  {
    name: '病理诊断常用语',
    description: '病理诊断报告的标准短语',
    details: [
      ['慢性非萎缩性胃炎', 'CHRONIC_GASTRITIS'],
      ['管状腺瘤伴低级别上皮内瘤变', 'TUBULAR_ADENOMA_LGIN'],
      ['浸润性导管癌', 'IDC'],
      ['未见恶性肿瘤', 'NO_MALIGNANCY'],
    ],
  },
];

/** The names already seeded into an organisation: its business dictionaries now, and those seeded before. */
async function seededNames(db: Queryable, orgId: number): Promise<Set<string>> {
  const rows = await db.query<{ name: string | null }>(
    `select name from dictionary where org_id = $1 and type = 'bus'
     union select after->>'name' from operation_log where resource = 'dictionary' and org_id = $1 and action = 'demoSeed'`,
    [orgId],
  );
  return new Set(rows.flatMap((r) => (r.name === null ? [] : [r.name])));
}

/** The base organisation's business dictionary of a name, as a source a lab's copy is made from. */
async function baseSource(db: Queryable, name: string) {
  const row = await one<{ id: number }>(
    db,
    `select id from dictionary where org_id = 0 and type = 'bus' and name = $1`,
    [name],
  );
  return row ? (await dictionarySources(db, [row.id]))[0] : undefined;
}

/**
 * The base organisation and the only-labs get dictionaries of their own; a main or sub lab gets copies
 * of the base organisation's (public data, spec 1), as synchronising or importing them would give it.
 */
export async function seedDemoDictionaries(db: Queryable, orgIds: number[]): Promise<void> {
  const labTypes = new Map(
    (await db.query<{ id: number; labType: string }>('select id, lab_type as "labType" from organization')).map((o) => [
      o.id,
      o.labType,
    ]),
  );
  for (const orgId of [...orgIds].sort((a, b) => a - b)) {
    const done = await seededNames(db, orgId);
    const copies = ['main', 'sub'].includes(labTypes.get(orgId) ?? '');
    for (const [sort, d] of BUSINESS.entries()) {
      if (done.has(d.name)) continue;
      let id: number | undefined;
      if (copies) {
        // A base dictionary a user has since deleted is not copied: the lab copies what the base keeps.
        const source = await baseSource(db, d.name);
        if (source) [id] = await insertDictionaryCopies(db, orgId, [source]);
      } else id = await insertOwn(db, orgId, d, sort);
      if (id === undefined) continue;
      await db.query(
        `insert into operation_log (user_account, org_id, resource, record_id, action, after) values ('system', $1, 'dictionary', $2, 'demoSeed', $3)`,
        [orgId, String(id), JSON.stringify({ name: d.name })],
      );
    }
  }
}

async function insertOwn(db: Queryable, orgId: number, d: (typeof BUSINESS)[number], sort: number): Promise<number> {
  const created = await one<{ id: number }>(
    db,
    `insert into dictionary (org_id, name, type, description, sort) values ($1, $2, 'bus', $3, $4) returning id`,
    [orgId, d.name, d.description, sort],
  );
  await db.query(
    `insert into dictionary_detail (dictionary_id, label, value, sort)
     select $1, x->>0, x->>1, n - 1 from jsonb_array_elements($2::jsonb) with ordinality as t(x, n)`,
    [created!.id, JSON.stringify(d.details)],
  );
  return created!.id;
}
