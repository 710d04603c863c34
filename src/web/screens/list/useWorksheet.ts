import { useCallback, useState } from 'react';
import { matches } from '../../../shared/screens/predicate';
import type { ScreenSchema } from '../../../shared/screens/fields';
import { http, errorMessage } from '../../api/http';
import { notify } from '../../feedback/feedback';
import { useT } from '../../i18n';
import type { ScreenRecord } from '../dataProvider';

/**
 * The list as a worksheet (list.worksheet): values typed in place are kept here, by row, until saved
 * together; a refused save keeps every value typed, so nothing is typed twice.
 */
export function useWorksheet(screen: ScreenSchema, reload: () => void) {
  const t = useT();
  const sheet = screen.list?.worksheet;
  const [edits, setEdits] = useState<Map<number, string>>(new Map());
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();

  const editable = useCallback(
    (record: ScreenRecord) => sheet !== undefined && (!sheet.editableWhen || matches(sheet.editableWhen, record)),
    [sheet],
  );
  const valueOf = (record: ScreenRecord) => edits.get(record.id) ?? (sheet ? String(record[sheet.field] ?? '') : '');
  /** Values for this row and the ones after it (a column pasted from a spreadsheet). */
  const type = useCallback((rows: ScreenRecord[], values: string[]) => {
    setEdits((before) => {
      const next = new Map(before);
      rows.slice(0, values.length).forEach((row, i) => next.set(row.id, values[i]!));
      return next;
    });
  }, []);

  const save = async () => {
    if (!sheet || edits.size === 0) return;
    setSaving(true);
    try {
      const rows = [...edits].map(([id, value]) => ({ id, [sheet.field]: value }));
      await http.post(sheet.save, { rows });
      notify.success(t('screen.worksheetSaved', { n: rows.length }));
      setEdits(new Map());
      setError(undefined);
      reload();
    } catch (e) {
      setError(errorMessage(e, t('screen.saveFailed')));
    } finally {
      setSaving(false);
    }
  };
  const discard = () => {
    setEdits(new Map());
    setError(undefined);
  };
  return { sheet, edits, saving, error, editable, valueOf, type, save, discard };
}

export type Worksheet = ReturnType<typeof useWorksheet>;
