import { useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ActionDef, ScreenSchema } from '../../../shared/screens/fields';
import type { RecordValues } from '../../../shared/screens/predicate';
import type { FieldError } from '../../../shared/screens/validate';
import { errorMessage, fieldErrors } from '../../api/http';
import { feedback, notify } from '../../feedback/feedback';
import { i18n, useT } from '../../i18n';
import { commandHandler } from '../commands';
import { queryOf, type ListParams, type ScreenRecord } from '../dataProvider';

/** A command waiting for its dialog's inputs (action.fields), with the rows it runs on. */
export interface Asking {
  action: ActionDef;
  records: ScreenRecord[];
  /** The button that asked, which spins while the command runs. */
  key: string;
  errors: FieldError[];
}

/** A command button's key: where it sits (toolbar, row, batch), which command, which row. */
export function commandKey(scope: 'toolbar' | 'row' | 'batch', action: ActionDef, id?: number): string {
  return `${scope}:${action.name ?? action.endpoint}:${id ?? ''}`;
}

/** The list's filters and sort, not its page: a toolbar command works on the whole list. */
function listQueryOf(params: ListParams): Record<string, string> {
  return Object.fromEntries(Object.entries(queryOf(params)).filter(([k]) => k !== 'page' && k !== 'size'));
}

/**
 * The named commands of a screen: one runs at a time (its button spins, the others wait). A command
 * confirms when the schema asks, asks for its inputs when it declares fields (the dialog stays open,
 * with the server's field errors, until the command succeeds), runs, says how it went and reloads.
 */
export function useCommandRunner(screen: ScreenSchema, list: { params: ListParams; reload: () => void }) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const [running, setRunning] = useState<string>();
  const [asking, setAsking] = useState<Asking>();

  const run = (action: ActionDef, records: ScreenRecord[], key: string, values?: RecordValues) => {
    const handler = commandHandler(action);
    if (!handler || running) return;
    if (action.fields && !values) return setAsking({ action, records, key, errors: [] });
    const label = action.label?.[locale] ?? t('screen.command');
    const listQuery = listQueryOf(list.params);
    const go = async () => {
      setRunning(key);
      try {
        const text = await handler({ screen, action, records, locale, values, listQuery });
        notify.success(text || t('screen.commandDone', { action: label }));
        setAsking(undefined);
        list.reload();
      } catch (e) {
        setAsking((current) => current && { ...current, errors: fieldErrors(e) });
        notify.error(errorMessage(e, t('screen.commandFailed', { action: label })));
      } finally {
        setRunning(undefined);
      }
    };
    if (!action.confirm) return void go();
    feedback.modal.confirm({
      title: t('screen.warning'),
      content: action.confirm[locale],
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: go,
    });
  };

  /** A command button's state: the running one spins, the others wait. */
  const button = (key: string) => ({ loading: running === key, disabled: running !== undefined && running !== key });

  return { run, running, button, asking, stopAsking: () => setAsking(undefined) };
}
