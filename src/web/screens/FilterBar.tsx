import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Form, Input, Select, Space } from 'antd';
import { useSnapshot } from 'valtio';
import type { FieldDef, ScreenSchema } from '../../shared/screens/fields';
import type { Locale } from '../../shared/i18n/messages';
import { dictionaryState } from '../dictionaries/dictionaries';
import { i18n, useT } from '../i18n';
import { dataProvider } from './dataProvider';
import { DATE_RANGE_WIDTH } from './dateRangeWidth';

/**
 * The period picker comes with the first screen that filters by a date: antd's date picker is some 30 KB
 * of script, and most lists (the first a user opens among them) filter by none.
 */
const DateRangeFilter = lazy(() => import('./DateRangeFilter'));

/**
 * A reference filter: records of the referenced resource by title, searched as the user types; several
 * mean any of them. The value is kept as the list query sends it, ids joined by commas ("3,5"), the
 * form a dashboard's link writes too.
 */
function ReferenceFilter({
  field,
  locale,
  id,
  value,
  onChange,
}: {
  field: FieldDef;
  locale: Locale;
  id?: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const target = field.reference ?? field.tree;
  const [search, setSearch] = useState('');
  const [choices, setChoices] = useState<{ value: number; label: string }[]>([]);
  // Titles of every record offered so far: a chosen one keeps its title when a new search leaves it out.
  const [known] = useState(() => new Map<number, string>());
  // Records are asked for when the list opens, or to title a value a link set: a page that only shows
  // the filter asks nothing (its user may not even read the referenced records).
  const [opened, setOpened] = useState(false);
  const ids = typeof value === 'string' && value ? value.split(',').map(Number) : [];
  const wanted = opened || ids.length > 0;
  useEffect(() => {
    if (!target || !wanted) return;
    let current = true;
    const timer = setTimeout(() => {
      dataProvider.options(target.resource, target.labelField ?? 'name', search).then(
        (o) => {
          for (const c of o) known.set(c.value, c.label);
          if (current) setChoices(o);
        },
        () => undefined,
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [target, search, known, wanted]);
  const options = [
    ...ids
      .filter((id) => !choices.some((c) => c.value === id))
      .map((id) => ({ value: id, label: known.get(id) ?? String(id) })),
    ...choices,
  ];
  return (
    <Select
      id={id}
      mode="multiple"
      value={ids}
      allowClear
      maxTagCount="responsive"
      showSearch={{ filterOption: false, onSearch: setSearch }}
      onOpenChange={(open) => open && setOpened(true)}
      options={options}
      onChange={(v: number[]) => onChange?.(v.length > 0 ? v.join(',') : undefined)}
      style={{ width: 200 }}
      placeholder={field.label[locale]}
    />
  );
}

/** A filter's control; Form.Item hands it value and onChange, passed on to the antd input. */
function FilterControl({
  field,
  locale,
  ...control
}: {
  field: FieldDef;
  locale: Locale;
  id?: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const { dictionaries } = useSnapshot(dictionaryState);
  // Dates filter by range unless the schema says otherwise (the server's default too).
  if ((field.type === 'date' || field.type === 'datetime') && (field.filter ?? 'range') === 'range')
    return (
      // Held in the picker's own width while it loads, so the bar does not move.
      <Suspense fallback={<Input disabled aria-label={field.label[locale]} style={{ width: DATE_RANGE_WIDTH }} />}>
        <DateRangeFilter field={field} {...control} />
      </Suspense>
    );
  if ((field.type === 'reference' && field.reference) || (field.type === 'tree' && field.tree))
    return <ReferenceFilter field={field} locale={locale} {...control} />;
  if (field.type === 'enum' || field.type === 'boolean') {
    const options =
      field.type === 'boolean'
        ? [
            { value: 'true', label: locale === 'zh-CN' ? '是' : 'Yes' },
            { value: 'false', label: locale === 'zh-CN' ? '否' : 'No' },
          ]
        : field.dictionary
          ? (dictionaries.find((d) => d.name === field.dictionary)?.details ?? []).map((d) => ({
              value: d.value,
              label: d.label,
            }))
          : (field.options ?? []).map((o) => ({ value: String(o.value), label: o.label[locale] }));
    return (
      <Select
        {...control}
        value={control.value as string | undefined}
        allowClear
        options={options}
        style={{ width: 140 }}
        placeholder={field.label[locale]}
      />
    );
  }
  return (
    <Input
      {...control}
      value={control.value as string | undefined}
      allowClear
      placeholder={field.label[locale]}
      style={{ width: 160 }}
    />
  );
}

/** The filters the schema offers above the list (screen.filters); 查询 applies them, 重置 clears them. */
export function FilterBar({
  screen,
  onApply,
  values,
}: {
  screen: ScreenSchema;
  onApply: (filters: Record<string, unknown>) => void;
  /** Filters set from outside the bar (a link's): shown in its controls, so 重置 and 查询 start from them. */
  values?: Record<string, unknown>;
}) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const [form] = Form.useForm();
  useEffect(() => {
    form.resetFields();
    if (values) form.setFieldsValue(values);
  }, [form, values]);
  const fields = (screen.filters ?? [])
    .map((k) => screen.fields.find((f) => f.key === k))
    .filter((f): f is FieldDef => !!f);
  if (fields.length === 0) return null;
  const apply = () => onApply(form.getFieldsValue() as Record<string, unknown>);
  return (
    <Form form={form} layout="inline" className="screen-filters" onFinish={apply} initialValues={values}>
      {fields.map((f) => (
        <Form.Item key={f.key} name={f.key} label={f.label[locale]}>
          <FilterControl field={f} locale={locale} />
        </Form.Item>
      ))}
      <Space>
        <Button type="primary" htmlType="submit">
          {t('screen.query')}
        </Button>
        <Button
          onClick={() => {
            form.resetFields();
            apply();
          }}
        >
          {t('screen.reset')}
        </Button>
      </Space>
    </Form>
  );
}
