import { useEffect, useRef, useState } from 'react';
import { Input, InputNumber } from 'antd';
import type { WidgetProps } from '@rjsf/utils';

/** Typing stays in the widget; the form hears of it after a pause or on leaving the field (issue 7: ≤ 16 ms a keystroke). */
const PAUSE_MS = 250;

function useLocalValue<T>(value: T, commit: (v: T) => void) {
  const [local, setLocal] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    // The form changed the value itself (reset, another record): follow it.
    setSeen(value);
    setLocal(value);
  }
  useEffect(() => () => clearTimeout(timer.current), []);
  const change = (next: T) => {
    setLocal(next);
    latest.current = next;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(next), PAUSE_MS);
  };
  const flush = () => {
    clearTimeout(timer.current);
    commit(latest.current);
  };
  return { local, change, flush, setLatest: (v: T) => (latest.current = v) };
}

export function LocalTextWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, placeholder, options } = props;
  const text = (value as string | undefined) ?? '';
  const commit = (v: string) => onChange(v === '' ? undefined : v);
  const { local, change, flush } = useLocalValue(text, commit);
  const common = {
    id,
    value: local,
    disabled: disabled || readonly,
    placeholder,
    onChange: (e: { target: { value: string } }) => change(e.target.value),
    onBlur: () => {
      flush();
      onBlur(id, local);
    },
  };
  if (options.rows) return <Input.TextArea {...common} rows={Number(options.rows)} />;
  // Another person's password typed on this screen (a receiver's): masked, never filled in by the browser.
  if (options.secret) return <Input.Password {...common} autoComplete="new-password" />;
  if (options.barcode) {
    // A scanner types the code and presses Enter: take the code then, and select it all on focus so the next scan replaces it.
    return (
      <Input
        {...common}
        className="barcode-input"
        allowClear
        onFocus={(e) => e.target.select()}
        onPressEnter={(e) => {
          e.preventDefault();
          flush();
        }}
      />
    );
  }
  return <Input {...common} allowClear />;
}

export function LocalNumberWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, schema, options } = props;
  const { local, change, flush } = useLocalValue<number | null>((value as number | undefined) ?? null, (v) => onChange(v ?? undefined));
  return (
    <InputNumber
      id={id}
      value={local}
      disabled={disabled || readonly}
      style={{ width: '100%' }}
      min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
      max={typeof schema.maximum === 'number' ? schema.maximum : undefined}
      precision={typeof options.precision === 'number' ? options.precision : undefined}
      prefix={typeof options.prefix === 'string' ? options.prefix : undefined}
      onChange={(v) => change(v === null || v === undefined ? null : Number(v))}
      onBlur={() => {
        flush();
        onBlur(id, local);
      }}
    />
  );
}
