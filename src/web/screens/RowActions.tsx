import { LoadingOutlined } from '@ant-design/icons';
import type { ActionDef } from '../../shared/screens/fields';
import { matches } from '../../shared/screens/predicate';
import type { ScreenRecord } from './dataProvider';

interface Props {
  actions: ActionDef[];
  record: ScreenRecord;
  label: (action: ActionDef) => string;
  /** A command's button state: the running one spins, the others wait. */
  state: (action: ActionDef) => { loading?: boolean; disabled?: boolean };
  onRun: (action: ActionDef) => void;
}

/**
 * A row's actions, as antd's own table examples draw them: link-styled text, in antd's colours (its
 * CSS variables) and the table's size. Plain buttons, not antd Buttons: a 500-row page draws two or
 * three per visible row on every render, and antd's Button (wave, theme hooks) cost it ~14 ms.
 */
export function RowActions({ actions, record, label, state, onRun }: Props) {
  return (
    <span className="screen-row-actions">
      {actions
        .filter((a) => matches(a.visibleWhen, record))
        .map((a) => {
          const { loading, disabled } = a.kind === 'command' ? state(a) : {};
          return (
            <button
              key={a.kind + (a.name ?? a.endpoint ?? '')}
              type="button"
              className={a.kind === 'delete' ? 'screen-row-action danger' : 'screen-row-action'}
              disabled={disabled || loading}
              aria-busy={loading || undefined}
              onClick={() => onRun(a)}
            >
              {loading && <LoadingOutlined />}
              {label(a)}
            </button>
          );
        })}
    </span>
  );
}
