import type { ReactNode } from 'react';
import { Button, Checkbox, Popover, Tooltip } from 'antd';
import { TableOutlined } from '@ant-design/icons';
import { useT } from '../i18n';

interface Props {
  /** The list's field columns, in order. */
  columns: readonly { key?: unknown; title?: unknown }[];
  /** Key columns: always shown, offered checked and fixed. */
  keys: readonly string[];
  hidden: readonly string[];
  onChange: (hidden: string[]) => void;
}

/**
 * The column picker of a list (issue 25): which of its columns to show, remembered per user (the
 * caller keeps the choice, preferences/columns). Key columns are listed but cannot be hidden.
 */
export function ColumnPicker({ columns, keys, hidden, onChange }: Props) {
  const t = useT();
  const keySet = new Set(keys);
  const hiddenSet = new Set(hidden);
  const content = (
    <div className="column-picker">
      {columns.map((c) => {
        const key = String(c.key);
        const fixed = keySet.has(key);
        const box = (
          <Checkbox
            key={key}
            checked={fixed || !hiddenSet.has(key)}
            disabled={fixed}
            onChange={(e) =>
              onChange(e.target.checked ? hidden.filter((k) => k !== key) : [...hidden.filter((k) => k !== key), key])
            }
          >
            {c.title as ReactNode}
          </Checkbox>
        );
        return fixed ? (
          <Tooltip key={key} title={t('screen.columnsKey')} placement="left">
            {box}
          </Tooltip>
        ) : (
          box
        );
      })}
      <Button type="link" size="small" disabled={hidden.length === 0} onClick={() => onChange([])}>
        {t('screen.columnsReset')}
      </Button>
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('screen.columns')} content={content}>
      <Button className="column-picker-button" icon={<TableOutlined />} aria-label={t('screen.columns')}>
        {t('screen.columns')}
      </Button>
    </Popover>
  );
}
