import { useState } from 'react';
import { Button, Tag } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import type { WidgetProps } from '@rjsf/utils';
import { splitCodes } from '../../../shared/codes/split';
import type { RecordValues } from '../../../shared/screens/predicate';
import { useT } from '../../i18n';
import { ScannerInput } from '../ScannerInput';

/**
 * A scanner's list (field.form.scan): each code scanned joins the field's codes (one per line), shown as
 * tags that can be taken off. Given the field of the record that holds the codes expected (a handover's
 * barcodes), each scan shows whether it is one of them, and those not scanned yet are named: what the
 * server will take as missing, seen before the receiver signs.
 */
export function ScanListWidget({ id, value, onChange, options, registry, disabled, readonly }: WidgetProps) {
  const t = useT();
  const [again, setAgain] = useState<string>();
  const codes = splitCodes(value);
  const record = (registry.formContext as { record?: RecordValues } | undefined)?.record;
  const against = typeof options.against === 'string' && options.against !== '' ? options.against : undefined;
  const expected = against && record ? splitCodes(record[against]) : undefined;
  const set = (next: string[]) => onChange(next.length > 0 ? next.join('\n') : undefined);
  // A scan is one code; a list pasted from a spreadsheet or a message is several, each taken in turn.
  const add = (typed: string) => {
    const next = [...codes];
    let twice: string | undefined;
    for (const code of splitCodes(typed)) {
      if (next.includes(code)) twice = code;
      else next.push(code);
    }
    setAgain(twice);
    if (next.length > codes.length) set(next);
  };
  const waiting = expected?.filter((code) => !codes.includes(code)) ?? [];
  return (
    <div className="scan-list">
      <ScannerInput id={id} disabled={disabled || readonly} onCode={add} />
      <div className="scan-list-status" role="status">
        {expected
          ? t('scanList.count', { n: expected.length - waiting.length, total: expected.length })
          : t('scanList.scanned', { n: codes.length })}
        {waiting.length > 0 && ` · ${t('scanList.waiting', { codes: waiting.join('、') })}`}
        {again && ` · ${t('scanList.again', { code: again })}`}
      </div>
      <div className="scan-list-codes">
        {codes.map((code) => {
          const stray = expected !== undefined && !expected.includes(code);
          return (
            <Tag key={code} color={stray ? 'error' : expected ? 'success' : undefined}>
              {stray ? t('scanList.stray', { code }) : code}
              {!disabled && !readonly && (
                // A button, so a wrong scan is taken off by keyboard as well as by pointer.
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  aria-label={t('scanList.remove', { code })}
                  onClick={() => set(codes.filter((c) => c !== code))}
                />
              )}
            </Tag>
          );
        })}
      </div>
    </div>
  );
}
