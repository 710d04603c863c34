import { useRef } from 'react';
import { Button, Space } from 'antd';
import { useSnapshot } from 'valtio';
import type { ActionDef, ScreenSchema } from '../../shared/screens/fields';
import { matches } from '../../shared/screens/predicate';
import { i18n, useT } from '../i18n';
import type { ScreenRecord } from './dataProvider';
import { PublicDataActions } from './PublicDataActions';

interface Props {
  screen: ScreenSchema;
  basic: boolean;
  /** The toolbar and batch actions this user may take. */
  toolbar: ActionDef[];
  batch: ActionDef[];
  /** An import or export is running: their buttons spin. */
  busy: boolean;
  /** A command's button state: the running one spins, the others wait. */
  commandState: (action: ActionDef, scope: 'toolbar' | 'batch') => { loading: boolean; disabled: boolean };
  onToolbar: (action: ActionDef) => void;
  onImport: (file: File, endpoint?: string) => void;
  onBatch: (action: ActionDef) => void;
  selected: number[];
  /** The selected rows themselves: a batch action is for rows that meet its condition. */
  chosen: ScreenRecord[];
  records: ScreenRecord[];
  reload: () => void;
}

/**
 * A button that asks for one file, by the browser's own file chooser: all an import needs of antd's
 * Upload (whose list, progress and drop area it never shows), without its code on every list screen.
 */
function ImportButton(props: { accept: string; busy: boolean; label: string; onFile: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  // One element: the toolbar's Space would give the hidden input a gap of its own.
  return (
    <span>
      <Button loading={props.busy} onClick={() => input.current?.click()}>
        {props.label}
      </Button>
      <input
        ref={input}
        type="file"
        accept={props.accept}
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Emptied, so that choosing the same file again (after fixing it) imports it again.
          e.target.value = '';
          if (file) props.onFile(file);
        }}
      />
    </span>
  );
}

/** The buttons above the list: the toolbar's (create, commands, import, export), public data, then the batch ones. */
export function ScreenToolbar(props: Props) {
  const { screen, basic, toolbar, batch, busy, commandState, selected, chosen, records, ...on } = props;
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const batchLabel = (a: ActionDef) =>
    a.label?.[locale] ?? t(a.kind === 'delete' ? 'screen.batchDelete' : (`screen.${a.kind}` as 'screen.create'));
  /**
   * The first selected row a batch action is not for (a step the row's state does not allow): the
   * button is disabled and says which, rather than asking the server to refuse the whole batch.
   */
  const notFor = (a: ActionDef) => {
    const row = a.visibleWhen && chosen.find((r) => !matches(a.visibleWhen, r));
    if (!row) return undefined;
    const title = screen.resource.titleField ? String(row[screen.resource.titleField] ?? '') : '';
    return t('screen.batchNotFor', { row: title || `#${row.id}`, action: batchLabel(a) });
  };
  const reasons = new Map(batch.map((a) => [a, notFor(a)]));
  const hint = [...reasons.values()].find((r) => r !== undefined);
  return (
    <Space className="screen-toolbar" wrap>
      {toolbar.map((a) =>
        a.kind === 'import' ? (
          <ImportButton
            key="import"
            // The generic import reads .xlsx; a capability's own import may read CSV too (a results file).
            accept={a.endpoint ? '.xlsx,.csv' : '.xlsx'}
            busy={busy}
            label={a.label?.[locale] ?? t('screen.import')}
            onFile={(file) => on.onImport(file, a.endpoint)}
          />
        ) : (
          <Button
            key={a.kind + (a.name ?? a.endpoint ?? '')}
            type={a.kind === 'create' ? 'primary' : 'default'}
            {...(a.kind === 'command' ? commandState(a, 'toolbar') : { loading: a.kind === 'export' && busy })}
            onClick={() => on.onToolbar(a)}
          >
            {a.label?.[locale] ?? t(`screen.${a.kind}` as 'screen.create')}
          </Button>
        ),
      )}
      <PublicDataActions screen={screen} basic={basic} selected={selected} records={records} onDone={on.reload} />
      {batch.map((a) => {
        const reason = reasons.get(a);
        const state = a.kind === 'command' ? commandState(a, 'batch') : { loading: false, disabled: false };
        // A disabled button takes no pointer events: its wrapper carries the reason's tooltip.
        return (
          <span key={`batch-${a.kind}-${a.name ?? a.endpoint ?? ''}`} title={reason}>
            <Button
              danger={a.kind === 'delete'}
              {...state}
              disabled={state.disabled || reason !== undefined}
              aria-description={reason}
              onClick={() => on.onBatch(a)}
            >
              {batchLabel(a)}
            </Button>
          </span>
        );
      })}
      {/* Said beside the buttons too: a tooltip needs a pointer, and a tablet at the bench has none. */}
      {hint && (
        <span className="screen-batch-hint" role="status">
          {hint}
        </span>
      )}
    </Space>
  );
}
