import type { Queryable } from '../db/database.js';

/**
 * Reading dictionaries (spec 7.4): what the generic resource needs to show an enum kept in a
 * dictionary, and what capabilities read by name. Writing them is the dictionaries capability's.
 */
export interface DictionaryDetail {
  id: number;
  label: string;
  value: string;
  sort: number;
  remark: string | null;
}

export interface Dictionary {
  id: number;
  orgId: number | null;
  name: string;
  type: 'sys' | 'bus';
  description: string | null;
  /** 0 the lab's own, 1 a synced copy of a base business dictionary, 2 its source changed since (spec 3). */
  syncFlag: number;
  details: DictionaryDetail[];
}

export const DICTIONARY_COLUMNS = `d.id, d.org_id as "orgId", d.name, d.type, d.description, d.sort, d.sync_flag as "syncFlag",
  coalesce((select json_agg(json_build_object('id', x.id, 'label', x.label, 'value', x.value, 'sort', x.sort, 'remark', x.remark)
                            order by x.sort, x.id)
              from dictionary_detail x where x.dictionary_id = d.id), '[]'::json) as details`;

/** A dictionary by name: the organisation's own first, else the shared one. */
export async function dictionaryByName(db: Queryable, orgId: number, name: string): Promise<Dictionary | undefined> {
  const rows = await db.query<Dictionary>(
    `select ${DICTIONARY_COLUMNS} from dictionary d where d.name = $2 and (d.org_id = $1 or d.org_id is null)
      order by d.org_id nulls last limit 1`,
    [orgId, name],
  );
  return rows[0];
}

/** The entries (value → label) of a dictionary by name, as the organisation sees it: its own, else the shared one. */
export async function dictionaryEntries(db: Queryable, orgId: number, name: string): Promise<Map<string, string>> {
  const dictionary = await dictionaryByName(db, orgId, name);
  return new Map((dictionary?.details ?? []).map((d) => [d.value, d.label]));
}
