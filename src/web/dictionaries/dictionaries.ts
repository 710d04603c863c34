import { proxy, ref } from 'valtio';
import { getResult } from '../api/http';

export interface Dictionary {
  id: number;
  name: string;
  type: 'sys' | 'bus';
  details: { id: number; label: string; value: string }[];
}

/** Spec 9: page sizes 50, 100, 200, 500 unless the system dictionary '分页' says otherwise. */
export const DEFAULT_PAGE_SIZES = [50, 100, 200, 500];

export const dictionaryState = proxy({
  loaded: false,
  dictionaries: [] as Dictionary[],
  pageSizes: DEFAULT_PAGE_SIZES,
  /** '查询时间范围': days back per screen (front entry, audit, handover, …). */
  queryDays: {} as Record<string, number>,
  /** '财务时间范围': start and end, in days relative to today. */
  finance: { start: -30, end: 0 },
});

export async function loadDictionaries(): Promise<void> {
  const list = await getResult<Dictionary[]>('/api/dictionary/all');
  const byName = new Map(list.map((d) => [d.name, d]));
  const sizes = (byName.get('分页')?.details ?? []).map((d) => Number(d.value)).filter((n) => n > 0);
  // Replaced whole, never changed in place: a ref, not a proxy of every entry (routes.ts says why).
  dictionaryState.dictionaries = ref(list);
  dictionaryState.pageSizes = sizes.length > 0 ? sizes : DEFAULT_PAGE_SIZES;
  dictionaryState.queryDays = Object.fromEntries(
    (byName.get('查询时间范围')?.details ?? []).map((d) => [d.label, Number(d.value)]),
  );
  const finance = byName.get('财务时间范围')?.details ?? [];
  dictionaryState.finance = {
    start: Number(finance.find((d) => d.label === '开始时间')?.value ?? -30),
    end: Number(finance.find((d) => d.label === '结束时间')?.value ?? 0),
  };
  dictionaryState.loaded = true;
}

export function resetDictionaries() {
  dictionaryState.loaded = false;
  dictionaryState.dictionaries = [];
  dictionaryState.pageSizes = DEFAULT_PAGE_SIZES;
}
