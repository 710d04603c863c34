import { useEffect, useState } from 'react';
import { DatePicker, Select, Switch, TreeSelect } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import dayjs from 'dayjs';
import { useSnapshot } from 'valtio';
import { dictionaryState } from '../../dictionaries/dictionaries';
import { getResult } from '../../api/http';
import { dataProvider, type ScreenRecord } from '../dataProvider';

/** Options fixed in the schema (enum with options): the labels of the user's language; several when the field is multiple. */
export function OptionsWidget({ id, value, disabled, readonly, onChange, options }: WidgetProps) {
  const choices = (options.choices as { value: string | number | boolean; label: string }[] | undefined) ?? [];
  return (
    <Select
      id={id}
      mode={options.multiple ? 'multiple' : undefined}
      value={value as string | string[] | undefined}
      disabled={disabled || readonly}
      allowClear
      options={choices.map((c) => ({ value: c.value as string, label: c.label }))}
      onChange={(v) => onChange(v ?? undefined)}
      style={{ width: '100%' }}
    />
  );
}

/** An enum whose options are a dictionary's details (spec 7.4), as loaded at page entry. */
export function DictionaryWidget({ id, value, disabled, readonly, onChange, options }: WidgetProps) {
  const { dictionaries } = useSnapshot(dictionaryState);
  const dictionary = dictionaries.find((d) => d.name === options.dictionary);
  return (
    <Select
      id={id}
      value={value as string | undefined}
      disabled={disabled || readonly}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      options={(dictionary?.details ?? []).map((d) => ({ value: d.value, label: d.label }))}
      onChange={(v) => onChange(v ?? undefined)}
      style={{ width: '100%' }}
    />
  );
}

/** A reference to records of another resource, searched on the server as the user types. */
export function RemoteSelectWidget({ id, value, disabled, readonly, onChange, options }: WidgetProps) {
  const resource = String(options.resource);
  const labelField = String(options.labelField ?? 'name');
  const [search, setSearch] = useState('');
  const [choices, setChoices] = useState<{ value: number; label: string }[]>([]);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      dataProvider.options(resource, labelField, search).then(
        (o) => current && setChoices(o),
        () => undefined,
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [resource, labelField, search]);
  return (
    <Select
      id={id}
      mode={options.multiple ? 'multiple' : undefined}
      value={value as number | number[] | undefined}
      disabled={disabled || readonly}
      allowClear
      showSearch={{ filterOption: false, onSearch: setSearch }}
      options={choices}
      onChange={(v) => onChange(v ?? undefined)}
      style={{ width: '100%' }}
    />
  );
}

interface TreeNode {
  value: number;
  title: string;
  children: TreeNode[];
}

/** A node of a data source kept as a tree (parentField links each node to its parent). */
export function TreeWidget({ id, value, disabled, readonly, onChange, options }: WidgetProps) {
  const [tree, setTree] = useState<TreeNode[]>([]);
  const resource = String(options.resource);
  const labelField = String(options.labelField ?? 'name');
  const parentField = String(options.parentField ?? 'parentId');
  useEffect(() => {
    getResult<{ records: ScreenRecord[] }>(`/api/resources/${resource}`, { page: 1, size: 1000 }).then(
      (page) => {
        const nodes = new Map<number, TreeNode>(
          page.records.map((r) => [r.id, { value: r.id, title: String(r[labelField] ?? r.id), children: [] }]),
        );
        const roots: TreeNode[] = [];
        for (const r of page.records) {
          const parent = nodes.get(Number(r[parentField]));
          (parent ? parent.children : roots).push(nodes.get(r.id)!);
        }
        setTree(roots);
      },
      () => undefined,
    );
  }, [resource, labelField, parentField]);
  return (
    <TreeSelect
      id={id}
      value={value as number | undefined}
      disabled={disabled || readonly}
      multiple={Boolean(options.multiple)}
      allowClear
      treeData={tree}
      treeDefaultExpandAll
      key={tree.length}
      onChange={(v) => onChange(v ?? undefined)}
      style={{ width: '100%' }}
    />
  );
}

export function SwitchWidget({ id, value, disabled, readonly, onChange }: WidgetProps) {
  return <Switch id={id} checked={Boolean(value)} disabled={disabled || readonly} onChange={(on) => onChange(on)} />;
}

export function DateWidget({ id, value, disabled, readonly, onChange, options }: WidgetProps) {
  const withTime = Boolean(options.time);
  const format = withTime ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD';
  return (
    <DatePicker
      id={id}
      showTime={withTime}
      value={value ? dayjs(String(value)) : null}
      disabled={disabled || readonly}
      format={format}
      onChange={(d) => onChange(d ? d.format(format) : undefined)}
    />
  );
}

export function DateRangeWidget({ id, value, disabled, readonly, onChange }: WidgetProps) {
  const range = (value as string[] | undefined) ?? [];
  return (
    <DatePicker.RangePicker
      id={id}
      value={range.length === 2 ? [dayjs(range[0]), dayjs(range[1])] : null}
      disabled={disabled || readonly}
      onChange={(d) => onChange(d && d[0] && d[1] ? [d[0].format('YYYY-MM-DD'), d[1].format('YYYY-MM-DD')] : undefined)}
    />
  );
}
