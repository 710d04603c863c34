import { useEffect, useRef, useState } from 'react';
import { Input, InputNumber } from 'antd';
import type { WidgetProps } from '@rjsf/utils';

/**
 * Typing stays in the input (issue 7: ≤ 16 ms a keystroke): antd's input is left uncontrolled, so a
 * keystroke re-renders neither this widget nor antd's wrapper around the input, and the form hears of
 * the text after a pause or on leaving the field.
 */
const PAUSE_MS = 250;

/** Two values the same to the form: an emptied field is handed over as undefined. */
const sameValue = (a: unknown, b: unknown) => (a ?? '') === (b ?? '');

function useLocalValue<T>(value: T, commit: (v: T) => void) {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(value);
  // The input is remounted (a new key, the form's value as its first value) only when the form changes
  // the value itself (reset, another record), never when it takes back what was typed.
  const [shown, setShown] = useState({ key: 0, value, seen: value });
  if (value !== shown.seen) {
    // eslint-disable-next-line react-hooks/refs -- what was typed, read to tell the form's own change from an echo of it
    const echo = sameValue(value, latest.current);
    setShown((s) => (echo ? { ...s, seen: value } : { key: s.key + 1, value, seen: value }));
  }
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    latest.current = shown.value;
  }, [shown.key, shown.value]);
  const change = (next: T) => {
    latest.current = next;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(next), PAUSE_MS);
  };
  const flush = () => {
    clearTimeout(timer.current);
    commit(latest.current);
  };
  return { key: shown.key, initial: shown.value, change, flush, latest };
}

export function LocalTextWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, placeholder, options } = props;
  const text = (value as string | undefined) ?? '';
  const commit = (v: string) => onChange(v === '' ? undefined : v);
  const { key, initial, change, flush, latest } = useLocalValue(text, commit);
  const common = {
    id,
    defaultValue: initial,
    disabled: disabled || readonly,
    placeholder,
    onChange: (e: { target: { value: string } }) => change(e.target.value),
    onBlur: () => {
      flush();
      onBlur(id, latest.current);
    },
  };
  if (options.rows) return <Input.TextArea key={key} {...common} rows={Number(options.rows)} />;
  // Another person's password typed on this screen (a receiver's): masked, never filled in by the browser.
  if (options.secret) return <Input.Password key={key} {...common} autoComplete="new-password" />;
  if (options.barcode) {
    // A scanner types the code and presses Enter: take the code then, and select it all on focus so the next scan replaces it.
    return (
      <Input
        key={key}
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
  return <Input key={key} {...common} allowClear />;
}

export function LocalNumberWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, schema, options } = props;
  const { key, initial, change, flush, latest } = useLocalValue<number | null>(
    (value as number | undefined) ?? null,
    (v) => onChange(v ?? undefined),
  );
  return (
    <InputNumber
      key={key}
      id={id}
      defaultValue={initial ?? undefined}
      disabled={disabled || readonly}
      min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
      max={typeof schema.maximum === 'number' ? schema.maximum : undefined}
      precision={typeof options.precision === 'number' ? options.precision : undefined}
      prefix={typeof options.prefix === 'string' ? options.prefix : undefined}
      onChange={(v) => change(v === null || v === undefined ? null : Number(v))}
      onBlur={() => {
        flush();
        onBlur(id, latest.current);
      }}
    />
  );
}
