import { useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ActionDef, ScreenSchema } from '../../../shared/screens/fields';
import type { RecordValues } from '../../../shared/screens/predicate';
import type { FieldError } from '../../../shared/screens/validate';
import { errorMessage, fieldErrors } from '../../api/http';
import { feedback, notify } from '../../feedback/feedback';
import { i18n, useT } from '../../i18n';
import { showCommandResult } from '../CommandResult';
import { commandHandler, type CommandOutcome } from '../commands';
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

/** Whether a button's key (commandKey) is a batch button's. */
export const isBatchKey = (key: string) => key.startsWith('batch:');

/** The list's filters and sort, not its page: a toolbar command works on the whole list. */
function listQueryOf(params: ListParams): Record<string, string> {
  return Object.fromEntries(Object.entries(queryOf(params)).filter(([k]) => k !== 'page' && k !== 'size'));
}

/**
 * The named commands of a screen: one runs at a time (its button spins, the others wait). A command
 * confirms when the schema asks, asks for its inputs when it declares fields (the dialog stays open,
 * with the input and the server's field errors, until the command succeeds), runs, says how it went
 * and reloads. How it went is one message per button: a success takes the place of an earlier try's
 * error. A success names the files it saved, and shows the values it answered (action.result) in a
 * box that stays until closed; `onSuccess` hears of it.
 */
export function useCommandRunner(
  screen: ScreenSchema,
  list: { params: ListParams; reload: () => void },
  /** A command succeeded, by its button's key (a batch's selection is done with). */
  onSuccess?: (key: string) => void,
) {
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
    const messageKey = `command:${key}`;
    const go = async () => {
      setRunning(key);
      try {
        const answer = await handler({ screen, action, records, locale, values, listQuery });
        const outcome: CommandOutcome = typeof answer === 'string' ? { text: answer } : (answer ?? {});
        const files = outcome.files ?? [];
        const done =
          outcome.text ||
          (files.length > 0
            ? t('screen.commandSaved', { action: label, files: files.join(', ') })
            : t('screen.commandDone', { action: label }));
        setAsking(undefined);
        if (outcome.values?.length) {
          notify.dismiss(messageKey);
          showCommandResult(done, outcome.values, t('common.close'));
        } else notify.success(done, messageKey);
        onSuccess?.(key);
        list.reload();
      } catch (e) {
        setAsking((current) => current && { ...current, errors: fieldErrors(e) });
        notify.error(errorMessage(e, t('screen.commandFailed', { action: label })), undefined, messageKey);
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
