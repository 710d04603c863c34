import { useMemo } from 'react';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { FieldDef } from '../../shared/screens/fields';
import { DATE_RANGE_WIDTH } from './dateRangeWidth';

/**
 * A period filter: [from, to] as the list query's keyFrom / keyTo. A datetime's last day counts whole
 * (a run at 08:00 on the last day is in the period).
 */
export default function DateRangeFilter({
  field,
  value,
  onChange,
}: {
  field: FieldDef;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const [from, to] = (value as (string | undefined)[] | undefined) ?? [];
  const end = field.type === 'datetime' ? 'YYYY-MM-DD 23:59:59' : 'YYYY-MM-DD';
  // A new array each render would reset the picker while the user types the second date.
  const range = useMemo(
    (): [Dayjs | null, Dayjs | null] | null => (from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null),
    [from, to],
  );
  return (
    <DatePicker.RangePicker
      value={range}
      allowEmpty={[true, true]}
      onChange={(d) => onChange?.(d && (d[0] || d[1]) ? [d[0]?.format('YYYY-MM-DD'), d[1]?.format(end)] : undefined)}
      style={{ width: DATE_RANGE_WIDTH }}
    />
  );
}
