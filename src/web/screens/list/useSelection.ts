import { useCallback, useMemo, useState, type Key } from 'react';

/**
 * The rows the user ticked, by id. Only rows the list still shows count as selected: a row deleted or
 * filtered away drops out without anyone clearing it.
 */
export function useSelection<R extends { id: Key }>(records: readonly R[]) {
  const [keys, setKeys] = useState<R['id'][]>([]);
  const present = useMemo(() => new Set(records.map((r) => r.id)), [records]);
  const selected = useMemo(() => keys.filter((k) => present.has(k)), [keys, present]);
  const chosen = useMemo(() => {
    const ids = new Set(selected);
    return records.filter((r) => ids.has(r.id));
  }, [records, selected]);
  return { selected, chosen, setSelected: setKeys, clear: useCallback(() => setKeys([]), []) };
}
