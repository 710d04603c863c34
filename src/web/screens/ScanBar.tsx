import { useRef, useState } from 'react';
import { Input, type InputRef } from 'antd';
import { ScanOutlined } from '@ant-design/icons';
import { useT } from '../i18n';

/**
 * The scanner's input of a screen that asks for one (list.scan): a scanner types the code and Enter;
 * the list shows that record, the input empties and keeps the focus for the next tube.
 */
export function ScanBar({ onScan }: { onScan: (code: string) => void }) {
  const t = useT();
  const [value, setValue] = useState('');
  const input = useRef<InputRef>(null);
  return (
    <Input
      ref={input}
      autoFocus
      allowClear
      className="screen-scan"
      prefix={<ScanOutlined />}
      placeholder={t('screen.scan')}
      aria-label={t('screen.scan')}
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onPressEnter={() => {
        const code = value.trim();
        setValue('');
        if (code) onScan(code);
        input.current?.focus();
      }}
      style={{ maxWidth: 360, marginBottom: 12 }}
    />
  );
}
