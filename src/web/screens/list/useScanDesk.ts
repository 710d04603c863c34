import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ActionDef, ScreenSchema } from '../../../shared/screens/fields';
import { matches } from '../../../shared/screens/predicate';
import { errorMessage } from '../../api/http';
import { refusalBeep } from '../../feedback/beep';
import { notify } from '../../feedback/feedback';
import { i18n, useT } from '../../i18n';
import { useScanAct } from '../../preferences/scanAct';
import { commandHandler } from '../commands';
import { dataProvider } from '../dataProvider';
import type { ListController } from './useListController';

/** One scan at a desk that acts on scans: the code, and what came of it. */
export interface ScanOutcome {
  code: string;
  done: boolean;
  /** What the user was told: done, or why not. */
  text: string;
}

/** The desk's switch: its label, whether it is on, and its setter; absent where the screen has no scan action. */
export interface ScanActSwitch {
  label: string;
  on: boolean;
  setOn: (on: boolean) => void;
}

/** The rows a scanned code may match (the list's filter is "contains"); the tube is the one equal to it. */
const MATCHES_READ = 20;

/**
 * A scanner desk (list.scan). A scanned code filters the list by the scan field; when the answer holds
 * no record, the user is told at once (a bench works by ear and eye, not by reading an empty table).
 * Where the screen names a scan action and the user turned the desk's switch on, the action runs on the
 * record whose field is the code, one scan after another however fast they come, and each scan joins
 * the desk's tally: done, or refused and why (its state does not allow the step, no such tube, or the
 * server's reason), a refusal with a low tone. The list then shows the last tube scanned, as it is now.
 */
export function useScanDesk(screen: ScreenSchema, list: ListController, rowActions: ActionDef[]) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const field = screen.list?.scan?.field ?? '';
  const name = screen.list?.scan?.action;
  const action = name ? rowActions.find((a) => a.kind === 'command' && a.name === name) : undefined;
  const label = action?.label?.[locale] ?? '';
  const [on, setOn] = useScanAct(screen.id);
  const [tally, setTally] = useState<ScanOutcome[]>([]);
  // Scans are acted on in the order they came: each waits for the one before it.
  const queue = useRef<Promise<void>>(Promise.resolve());
  // The code whose list answer is awaited (looking, not acting); told once, then forgotten.
  const looking = useRef<string>(undefined);

  useEffect(() => {
    const code = looking.current;
    if (code === undefined || list.loading) return;
    looking.current = undefined;
    if (list.records.length === 0) notify.warning(t('screen.scanNone', { code }));
  }, [list.loading, list.records, t]);

  const show = (code: string) => {
    list.setFilters({ [field]: code });
    // Asked again even for the code already shown: a tube scanned twice is read as it is now.
    list.reload();
  };

  /** The action on the scanned tube: what came of it, as the tally tells it. */
  const actOn = async (act: ActionDef, code: string): Promise<ScanOutcome> => {
    const refused = (told: string, text = told) => {
      notify.error(told);
      refusalBeep();
      return { code, done: false, text };
    };
    try {
      const { records } = await dataProvider.getList(screen, {
        page: 1,
        size: MATCHES_READ,
        filters: { [field]: code },
      });
      const record = records.find((r) => String(r[field] ?? '') === code);
      if (!record) return refused(t('screen.scanNone', { code }));
      if (!matches(act.visibleWhen, record))
        return refused(t('screen.batchNotFor', { row: code, action: label }), t('screen.notFor', { action: label }));
      await commandHandler(act)!({ screen, action: act, records: [record], locale });
      return { code, done: true, text: t('screen.commandDone', { action: label }) };
    } catch (e) {
      return refused(errorMessage(e, t('screen.commandFailed', { action: label })));
    }
  };

  const onScan = (code: string) => {
    if (!action || !on) {
      looking.current = code;
      return show(code);
    }
    queue.current = queue.current.then(async () => {
      const outcome = await actOn(action, code);
      setTally((earlier) => [outcome, ...earlier]);
      show(code);
    });
  };

  const actSwitch: ScanActSwitch | undefined = action && { label, on, setOn };
  return { onScan, actSwitch, tally: actSwitch?.on ? tally : [], clearTally: () => setTally([]) };
}
