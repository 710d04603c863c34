import { useRef, useState, type RefObject } from 'react';
import { Input, type InputRef } from 'antd';
import { ScanOutlined } from '@ant-design/icons';
import { useT } from '../i18n';

/**
 * Where a scanner types: it types the code and Enter; the code is handed on, the input empties and
 * keeps the focus for the next tube, and the Enter sends no form it sits in. Without an `id` (a label
 * of its own) it is named by its placeholder.
 */
export function ScannerInput({
  onCode,
  id,
  className,
  autoFocus,
  disabled,
  ref,
}: {
  onCode: (typed: string) => void;
  /** The input, for a page that gives it the focus back (after its switch is turned). */
  ref?: RefObject<InputRef | null>;
  id?: string;
  className?: string;
  autoFocus?: boolean;
  disabled?: boolean;
}) {
  const t = useT();
  const [value, setValue] = useState('');
  const own = useRef<InputRef>(null);
  const input = ref ?? own;
  return (
    <Input
      ref={input}
      id={id}
      autoFocus={autoFocus}
      allowClear
      className={className}
      prefix={<ScanOutlined />}
      placeholder={t('screen.scan')}
      aria-label={id ? undefined : t('screen.scan')}
      value={value}
      disabled={disabled}
      onChange={(e) => setValue(e.target.value)}
      onPressEnter={(e) => {
        e.preventDefault();
        setValue('');
        if (value.trim()) onCode(value.trim());
        input.current?.focus();
      }}
    />
  );
}
