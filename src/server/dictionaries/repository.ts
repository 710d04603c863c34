import type { Queryable } from '../kernel/db/database.js';
import { DICTIONARY_COLUMNS, type Dictionary } from '../kernel/dictionaries/lookup.js';

/** System dictionaries (org null) plus the caller organisation's own, each with its details in order. */
export function dictionariesFor(db: Queryable, orgId: number): Promise<Dictionary[]> {
  return db.query<Dictionary>(
    `select d.id, d.org_id as "orgId", d.name, d.type, d.description, d.sync_flag as "syncFlag",
            coalesce((select json_agg(json_build_object('id', x.id, 'label', x.label, 'value', x.value, 'sort', x.sort, 'remark', x.remark)
                                      order by x.sort, x.id)
                        from dictionary_detail x where x.dictionary_id = d.id), '[]'::json) as details
       from dictionary d
      where d.org_id is null or d.org_id = $1
      order by d.type, d.sort, d.id`,
    [orgId],
  );
}

/**
 * The system dictionaries the app reads at page entry (spec 7.4): page sizes, default query time ranges
 * (days back from today, per screen) and the finance period. Seeded once; labs edit them afterwards.
 */
const SYSTEM_DICTIONARIES: { name: string; description: string; details: [string, string][] }[] = [
  {
    name: '分页',
    description: '列表每页条数的可选值',
    details: [
      ['50', '50'],
      ['100', '100'],
      ['200', '200'],
      ['500', '500'],
    ],
  },
  {
    name: '查询时间范围',
    description: '各查询页面默认的时间范围（天）',
    details: [
      ['前台录入', '7'],
      ['申请审核', '7'],
      ['申请反审核', '7'],
      ['前处理查询', '30'],
      ['标本交接', '7'],
      ['综合查询', '30'],
      ['委托中心', '30'],
    ],
  },
  {
    name: '财务时间范围',
    description: '财务页面默认的开始与结束时间（相对今天的天数）',
    details: [
      ['开始时间', '-30'],
      ['结束时间', '0'],
    ],
  },
];

export async function seedSystemDictionaries(db: Queryable): Promise<void> {
  for (const [sort, d] of SYSTEM_DICTIONARIES.entries()) {
    const rows = await db.query<{ id: number }>(
      `insert into dictionary (org_id, name, type, description, sort) values (null, $1, 'sys', $2, $3)
       on conflict do nothing returning id`,
      [d.name, d.description, sort],
    );
    const id = rows[0]?.id;
    if (id === undefined) continue;
    for (const [i, [label, value]] of d.details.entries()) {
      await db.query('insert into dictionary_detail (dictionary_id, label, value, sort) values ($1, $2, $3, $4)', [
        id,
        label,
        value,
        i,
      ]);
    }
  }
}

export async function getDictionary(db: Queryable, id: number): Promise<Dictionary | undefined> {
  const rows = await db.query<Dictionary>(`select ${DICTIONARY_COLUMNS} from dictionary d where d.id = $1`, [id]);
  return rows[0];
}

/**
 * A page of the organisation's dictionaries and the shared ones: name a part of the name (name), exact
 * names (names, e.g. the system dictionaries a page reads: 分页, 查询时间范围) and the type to narrow it.
 */
export async function pageDictionaries(
  db: Queryable,
  orgId: number,
  f: { name?: string; names?: string[]; type?: string; page: number; size: number },
): Promise<{ records: Dictionary[]; total: number }> {
  const where = `(d.org_id = $1 or d.org_id is null) and ($2::text is null or d.name ilike '%' || $2 || '%') and ($3::text is null or d.type = $3)
    and ($4::text[] is null or d.name = any($4::text[]))`;
  const params = [orgId, f.name || null, f.type || null, f.names && f.names.length > 0 ? f.names : null];
  const [count] = await db.query<{ n: number }>(`select count(*)::int as n from dictionary d where ${where}`, params);
  const records = await db.query<Dictionary>(
    `select ${DICTIONARY_COLUMNS} from dictionary d where ${where} order by d.type, d.sort, d.id limit $5 offset $6`,
    [...params, f.size, (f.page - 1) * f.size],
  );
  return { records, total: count?.n ?? 0 };
}

export interface DictionaryInput {
  name: string;
  type: 'sys' | 'bus';
  description?: string | null;
  sort?: number;
}

export async function insertDictionary(db: Queryable, orgId: number | null, input: DictionaryInput): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'insert into dictionary (org_id, name, type, description, sort) values ($1, $2, $3, $4, $5) returning id',
    [orgId, input.name, input.type, input.description ?? null, input.sort ?? 0],
  );
  return rows[0]!.id;
}

export async function updateDictionary(db: Queryable, id: number, input: Partial<DictionaryInput>): Promise<void> {
  await db.query(
    `update dictionary set name = coalesce($2, name), description = coalesce($3, description), sort = coalesce($4, sort),
            updated_at = now() where id = $1`,
    [id, input.name ?? null, input.description ?? null, input.sort ?? null],
  );
}

export async function deleteDictionary(db: Queryable, id: number): Promise<void> {
  await db.query('delete from dictionary where id = $1', [id]);
}

export interface DetailInput {
  label: string;
  value: string;
  sort?: number;
  remark?: string | null;
}

export async function insertDetail(db: Queryable, dictionaryId: number, d: DetailInput): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'insert into dictionary_detail (dictionary_id, label, value, sort, remark) values ($1, $2, $3, $4, $5) returning id',
    [dictionaryId, d.label, d.value, d.sort ?? 0, d.remark ?? null],
  );
  return rows[0]!.id;
}

export async function updateDetail(db: Queryable, dictionaryId: number, id: number, d: DetailInput): Promise<boolean> {
  const rows = await db.query(
    'update dictionary_detail set label = $3, value = $4, sort = $5, remark = $6 where id = $2 and dictionary_id = $1 returning id',
    [dictionaryId, id, d.label, d.value, d.sort ?? 0, d.remark ?? null],
  );
  return rows.length === 1;
}

/** The dictionary a detail belongs to, so its owner can be checked before the detail changes. */
export async function dictionaryOfDetail(db: Queryable, detailId: number): Promise<number | undefined> {
  const rows = await db.query<{ id: number }>('select dictionary_id as id from dictionary_detail where id = $1', [
    detailId,
  ]);
  return rows[0]?.id;
}

export async function deleteDetail(db: Queryable, id: number): Promise<void> {
  await db.query('delete from dictionary_detail where id = $1', [id]);
}

/** Makes the stored details the wanted ones: same label → updated in place, new → added, gone → removed. */
export async function replaceDetails(db: Queryable, dictionary: Dictionary, wanted: DetailInput[]): Promise<void> {
  const byLabel = new Map(dictionary.details.map((d) => [d.label, d]));
  for (const detail of wanted) {
    const existing = byLabel.get(detail.label);
    if (existing) await updateDetail(db, dictionary.id, existing.id, detail);
    else await insertDetail(db, dictionary.id, detail);
    byLabel.delete(detail.label);
  }
  for (const gone of byLabel.values()) await deleteDetail(db, gone.id);
}

/** After the base organisation changes a business dictionary, every lab's copy shows that an update waits. */
export async function flagDictionaryCopies(db: Queryable, sourceId: number): Promise<void> {
  await db.query('update dictionary set sync_flag = 2 where source_org_id = 0 and source_id = $1', [sourceId]);
}
