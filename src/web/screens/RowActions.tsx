import { DownOutlined, LoadingOutlined } from '@ant-design/icons';
import { Dropdown } from 'antd';

/** One action of one row, as the list shows it: its label, its state and what it does. */
export interface RowItem {
  key: string;
  label: string;
  danger?: boolean;
  /** A command running: its button spins. */
  loading?: boolean;
  /** Another command running: this one waits. */
  disabled?: boolean;
  onRun: () => void;
}

interface Props {
  items: RowItem[];
  /** How many stay buttons; the rest go in the more menu (fit/actionFit's inlineCount). */
  inline: number;
  /** The more menu's label. */
  more: string;
}

/**
 * A row's actions, as antd's own table examples draw them: link-styled text, in antd's colours (its
 * CSS variables) and the table's size, and, when they do not all fit, a "更多" menu with the rest.
 * Plain buttons, not antd Buttons: a 500-row page draws two or three per visible row on every render,
 * and antd's Button (wave, theme hooks) cost it ~14 ms. The menu is antd's, on rows that need one only.
 */
export function RowActions({ items, inline, more }: Props) {
  const shown = items.slice(0, inline);
  const rest = items.slice(inline);
  const restBusy = rest.some((i) => i.loading);
  return (
    <span className="screen-row-actions">
      {shown.map((item) => (
        <button
          key={item.key}
          type="button"
          className={item.danger ? 'screen-row-action danger' : 'screen-row-action'}
          disabled={item.disabled || item.loading}
          aria-busy={item.loading || undefined}
          onClick={item.onRun}
        >
          {item.loading && <LoadingOutlined />}
          {item.label}
        </button>
      ))}
      {rest.length > 0 && (
        <Dropdown
          trigger={['click']}
          menu={{
            items: rest.map((i) => ({
              key: i.key,
              label: i.label,
              danger: i.danger,
              disabled: i.disabled || i.loading,
              icon: i.loading ? <LoadingOutlined /> : undefined,
            })),
            onClick: ({ key }) => rest.find((i) => i.key === key)?.onRun(),
          }}
        >
          <button type="button" className="screen-row-action screen-row-more" aria-busy={restBusy || undefined}>
            {restBusy && <LoadingOutlined />}
            {more}
            <DownOutlined className="screen-row-more-arrow" />
          </button>
        </Dropdown>
      )}
    </span>
  );
}
