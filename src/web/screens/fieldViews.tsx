import { Fragment, type ReactNode } from 'react';
import { Tag } from 'antd';
import { optionLabel, type FieldDef } from '../../shared/screens/fields';
import type { Locale } from '../../shared/i18n/messages';
import { isEmpty, type RecordValues } from '../../shared/screens/predicate';
import { dictionaryState } from '../dictionaries/dictionaries';
import type { ScreenRecord } from './dataProvider';

const YES = { 'zh-CN': '是', 'en-US': 'Yes' };
const NO = { 'zh-CN': '否', 'en-US': 'No' };
const DOWNLOAD = { 'zh-CN': '下载', 'en-US': 'Download' };

/**
 * The label of an enum's value: its option's, or its dictionary entry's (spec 7.4), else the stored code.
 * Dictionaries are read, not subscribed to: page entry loads them before any page shows, and a
 * subscription per table cell would cost a 500-row page its render budget.
 */
function enumLabel(field: FieldDef, value: unknown, locale: Locale): string {
  const own = optionLabel(field, value, locale);
  if (own !== undefined) return own;
  const entry = field.dictionary
    ? dictionaryState.dictionaries.find((d) => d.name === field.dictionary)?.details.find((d) => d.value === value)
    : undefined;
  return entry?.label ?? String(value);
}

/**
 * The read view of a field (table cell, view dialog), one per field type. A function, not a component:
 * a 500-row page calls it for every cell, and a component per cell costs the page a fiber each.
 */
export function fieldValue(field: FieldDef, record: ScreenRecord, locale: Locale): ReactNode {
  const value = record[field.key];
  if (isEmpty(value)) return null;
  const label = record.labels?.[field.key];
  if (label !== undefined) return <>{Array.isArray(label) ? label.join('、') : label}</>;
  switch (field.type) {
    case 'enum': {
      if (Array.isArray(value)) return <>{value.map((v) => enumLabel(field, v, locale)).join('、')}</>;
      const option = field.options?.find((o) => o.value === value);
      return option?.color ? (
        <Tag color={option.color}>{option.label[locale]}</Tag>
      ) : (
        <>{enumLabel(field, value, locale)}</>
      );
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
      return (
        <>
          {first
            ? rows.map((row, i) => (
                <Fragment key={i}>
                  {i > 0 && '、'}
                  {fieldValue(first, row as ScreenRecord, locale)}
                </Fragment>
              ))
            : rows.length}
        </>
      );
    }
    default:
      return <>{String(value)}</>;
  }
}
