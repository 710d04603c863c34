import type { Key, ReactNode } from 'react';
import { Checkbox, Empty, Pagination, Radio, Spin, type PaginationProps, type TableColumnsType } from 'antd';

type Column<R> = TableColumnsType<R>[number];

/** What a card shows of a column: its title and the cell the table would draw. */
function cellOf<R>(column: Column<R>, record: R, index: number): ReactNode {
  const dataIndex = 'dataIndex' in column ? column.dataIndex : undefined;
  const value = typeof dataIndex === 'string' ? (record as Record<string, unknown>)[dataIndex] : undefined;
  return column.render ? (column.render(value, record, index) as ReactNode) : (value as ReactNode);
}

export interface CardRow<R> {
  record: R;
  /** Depth in a tree list (0 at the roots): the card is indented by it. */
  depth: number;
}

interface Props<R> {
  rows: readonly CardRow<R>[];
  rowKey: (record: R) => Key;
  /** The key columns, in order: the first titles the card, the others are its fields. */
  columns: TableColumnsType<R>;
  /** A row's actions laid out in the card's width. */
  actions?: (record: R) => ReactNode;
  loading: boolean;
  selection?: {
    type: 'checkbox' | 'radio';
    selected: readonly Key[];
    onChange: (keys: Key[]) => void;
    disabled?: (record: R) => boolean;
  };
  pagination?: PaginationProps | false;
}

/**
 * A list on a phone (issue 25): each row a card of its key columns, the first as its title, with its
 * actions below them, all within the screen's width; the pager below the cards. The cells are the
 * table's own renderers, so a value reads the same in both.
 */
export function RecordCards<R>({ rows, rowKey, columns, actions, loading, selection, pagination }: Props<R>) {
  const [title, ...fields] = columns;
  const toggle = (key: Key, on: boolean) => {
    if (!selection) return;
    if (selection.type === 'radio') return selection.onChange(on ? [key] : []);
    selection.onChange(on ? [...selection.selected, key] : selection.selected.filter((k) => k !== key));
  };
  return (
    <div className="screen-cards-wrap">
      <Spin spinning={loading}>
        {rows.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <ul className="screen-cards">
            {rows.map(({ record, depth }, index) => {
              const key = rowKey(record);
              const checked = selection?.selected.includes(key) ?? false;
              const Choice = selection?.type === 'radio' ? Radio : Checkbox;
              return (
                <li
                  key={key}
                  className="screen-card"
                  data-row-key={String(key)}
                  style={depth > 0 ? { marginInlineStart: Math.min(depth, 4) * 12 } : undefined}
                >
                  <div className="screen-card-head">
                    {selection && (
                      <Choice
                        checked={checked}
                        disabled={selection.disabled?.(record)}
                        onChange={(e) => toggle(key, e.target.checked)}
                      />
                    )}
                    {title && (
                      <span className={`screen-card-title screen-col-${String(title.key)}`}>
                        {cellOf(title, record, index)}
                      </span>
                    )}
                  </div>
                  {fields.length > 0 && (
                    <dl className="screen-card-fields">
                      {fields.map((column) => (
                        <div key={String(column.key)} className="screen-card-field">
                          <dt>{column.title as ReactNode}</dt>
                          <dd className={`screen-col-${String(column.key)}`}>{cellOf(column, record, index)}</dd>
                        </div>
                      ))}
                    </dl>
                  )}
                  {actions && <div className="screen-card-actions">{actions(record)}</div>}
                </li>
              );
            })}
          </ul>
        )}
      </Spin>
      {pagination && <Pagination className="screen-cards-pager" size="small" align="end" {...pagination} />}
    </div>
  );
}
