import type { ReactNode } from 'react';
import { Tag } from 'antd';
import type { FieldDef } from '../../shared/screens/fields';
import type { Locale } from '../../shared/i18n/messages';
import { isEmpty, type RecordValues } from '../../shared/screens/predicate';
import type { ScreenRecord } from './dataProvider';

const YES = { 'zh-CN': '是', 'en-US': 'Yes' };
const NO = { 'zh-CN': '否', 'en-US': 'No' };
const DOWNLOAD = { 'zh-CN': '下载', 'en-US': 'Download' };

/** The read view of a field (table cell, view dialog), one per field type. */
export function FieldValue({ field, record, locale }: { field: FieldDef; record: ScreenRecord; locale: Locale }) {
  const value = record[field.key];
  if (isEmpty(value)) return null;
  const label = record.labels?.[field.key];
  if (label !== undefined) return <>{Array.isArray(label) ? label.join('、') : label}</>;
  switch (field.type) {
    case 'enum': {
      if (Array.isArray(value)) return <>{value.map((v) => field.options?.find((o) => o.value === v)?.label[locale] ?? String(v)).join('、')}</>;
      const option = field.options?.find((o) => o.value === value);
      return option?.color ? <Tag color={option.color}>{option.label[locale]}</Tag> : <>{option?.label[locale] ?? String(value)}</>;
    }
    case 'boolean':
      return <Tag color={value ? 'green' : 'default'}>{value ? YES[locale] : NO[locale]}</Tag>;
    case 'money':
      return <>{Number(value).toFixed(field.precision ?? 2)}</>;
    case 'dateRange':
      return <>{(value as string[]).join(' ~ ')}</>;
    case 'image':
      return <img src={String(value)} alt={field.label[locale]} style={{ maxHeight: 32 }} />;
    case 'file':
      return (
        <a href={String(value)} download={field.label[locale]}>
          {DOWNLOAD[locale]}
        </a>
      );
    case 'phone':
      return <a href={`tel:${String(value)}`}>{String(value)}</a>;
    case 'email':
      return <a href={`mailto:${String(value)}`}>{String(value)}</a>;
    case 'barcode':
      return <span className="barcode-value">{String(value)}</span>;
    case 'list': {
      // A rich list reads as its rows, each by its first field.
      const first = field.itemFields?.[0];
      const rows = value as RecordValues[];
      return <>{first ? rows.map((row, i) => <FieldValue key={i} field={first} record={row as ScreenRecord} locale={locale} />).reduce<ReactNode[]>((out, node, i) => (i === 0 ? [node] : [...out, '、', node]), []) : rows.length}</>;
    }
    default:
      return <>{String(value)}</>;
  }
}
