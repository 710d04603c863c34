import { useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ScreenSchema } from '../../../shared/screens/fields';
import { errorMessage, fieldErrors } from '../../api/http';
import { feedback, notify } from '../../feedback/feedback';
import { i18n, useT } from '../../i18n';
import { dataProvider, type ListParams } from '../dataProvider';
import { saveFile } from '../download';

/**
 * A screen's Excel export and import; `busy` while either runs. Export saves the list's query (its
 * filters and sort) as "<screen title>.xlsx". Import sends the sheet, says how many rows came in and
 * reloads; a refused sheet opens a box listing what is wrong row by row, else the server's reason.
 */
export function useImportExport(screen: ScreenSchema, list: { params: ListParams; reload: () => void }) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const [busy, setBusy] = useState(false);

  const exportList = async () => {
    setBusy(true);
    try {
      saveFile(await dataProvider.exportFile(screen, list.params), `${screen.title[locale]}.xlsx`);
    } catch (e) {
      notify.error(errorMessage(e, t('screen.exportFailed')));
    } finally {
      setBusy(false);
    }
  };

  /** Sends the sheet to the resource's import, or to the call the import action names. */
  const importFile = (file: File, endpoint?: string) => {
    setBusy(true);
    dataProvider
      .importFile(screen, file, endpoint)
      .then((n) => {
        notify.success(t('screen.imported', { n }));
        list.reload();
      })
      .catch((e: unknown) => {
        const errors = fieldErrors(e);
        feedback.modal.error({
          title: t('screen.importFailed'),
          content:
            errors.length > 0
              ? errors.map((er, i) => <div key={i}>{er.message}</div>)
              : errorMessage(e, t('screen.importFailed')),
        });
      })
      .finally(() => setBusy(false));
  };

  return { busy, exportList, importFile };
}
