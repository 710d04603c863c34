import { useEffect, useState } from 'react';
import { AutoComplete, Button, Modal, Select, Space, Table } from 'antd';
import { notify } from '../../feedback/feedback';
import type { FormControl } from '../api';
import {
  buildExpression,
  FREE_FORM_ID,
  isResultVariable,
  newRow,
  OPERATORS,
  RESULT_OPERATORS,
  RESULT_VALUES,
  rowProblems,
  type ConditionRow,
  type Logic,
  type Operator,
} from '../../../shared/expression/conditions';
import { wt, type Zh } from '../i18n';

/**
 * The jump-condition builder (spec 2.4, 5): 1100 px with a 700 px table of rows (form, control,
 * operator, value, logic). Saving checks every row, reports the problems on the console and briefly to
 * the user, and turns a valid set into the `${...}` expression and the flow's form id list. Whether a
 * value is quoted follows the chosen control's declared type (numeric or not), never the value.
 */
const LOGICS: { value: Logic; label: Zh }[] = [
  { value: '', label: '无' },
  { value: '&&', label: '并且(&&)' },
  { value: '||', label: '或者(||)' },
];

export function ConditionDialog(props: {
  forms: { id: number | string; pageName: string }[];
  /** The controls of a form page with their types (api.formControls). */
  loadControls: (formId: string) => Promise<FormControl[]>;
  initial: ConditionRow[];
  readOnly: boolean;
  onSave: (built: { expression: string; formId: string }) => void;
  onCancel: () => void;
}) {
  const [rows, setRows] = useState<ConditionRow[]>(props.initial);
  const [selected, setSelected] = useState<string | undefined>(props.initial[0]?.id);
  const [columns, setColumns] = useState<Record<string, FormControl[]>>({});
  const { loadControls } = props;

  const loadColumns = async (formId: string) => {
    if (!formId || formId === FREE_FORM_ID || columns[formId]) return;
    try {
      const controls = await loadControls(formId);
      setColumns((c) => ({ ...c, [formId]: controls }));
    } catch (e) {
      console.error('获取窗体控件失败', e);
    }
  };
  // Controls of the forms the dialog opened with; a row's form chosen later loads on choosing.
  const [initial] = useState(props.initial);
  useEffect(() => {
    let live = true;
    const ids = [...new Set(initial.map((r) => r.formId).filter((id) => id && id !== FREE_FORM_ID))];
    Promise.all(ids.map(async (id) => [id, await loadControls(id)] as const))
      .then((entries) => live && setColumns((c) => ({ ...c, ...Object.fromEntries(entries) })))
      .catch((e: unknown) => console.error('获取窗体控件失败', e));
    return () => {
      live = false;
    };
  }, [initial, loadControls]);

  /**
   * Whether a row's variable is numeric: its control's declared type when the form's controls are
   * known; a free-typed field (A99999) or the result variable has no number type, so its value is quoted
   * (the engine still compares numeric text as a number). Unknown types keep what the row says.
   */
  const controlOf = (formId: string, key: string) => columns[formId]?.find((c) => c.key === key);
  const numericOf = (row: ConditionRow): boolean => {
    if (isResultVariable(row.variable)) return false;
    if (row.formId === FREE_FORM_ID) return false;
    return controlOf(row.formId, row.variable)?.numeric ?? row.numeric;
  };

  const change = (id: string, patch: Partial<ConditionRow>) =>
    setRows((all) => all.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const add = () => {
    const row = newRow();
    setRows((all) => [...all, row]);
    setSelected(row.id);
  };
  const remove = () => {
    setRows((all) => all.filter((r) => r.id !== selected));
    setSelected(undefined);
  };
  const save = () => {
    const typed = rows.map((r) => ({ ...r, numeric: numericOf(r) }));
    const problems = rowProblems(typed);
    if (problems.length > 0) {
      for (const p of problems) console.error(p);
      notify.error(wt('输入的判断条件不正确，请补足必须输入项。'), 1);
      return;
    }
    props.onSave(buildExpression(typed));
  };

  // The free-typed field first: a lab with many form pages finds it without scrolling the list.
  const formOptions = [
    { value: FREE_FORM_ID, label: wt('自定义字段(A99999)') },
    ...props.forms.map((f) => ({ value: String(f.id), label: f.pageName })),
  ];
  const editing = (r: ConditionRow) => !props.readOnly && r.id === selected;
  const table = (
    <Table<ConditionRow>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={rows}
      scroll={{ y: 700 }}
      rowSelection={{
        type: 'radio',
        selectedRowKeys: selected ? [selected] : [],
        onChange: (keys) => setSelected(String(keys[0])),
      }}
      onRow={(r) => ({ onClick: () => setSelected(r.id) })}
      columns={[
        {
          title: wt('窗体'),
          width: 220,
          render: (_, r) => (
            <Select
              disabled={!editing(r)}
              style={{ width: '100%' }}
              placeholder={wt('请输入窗体。')}
              value={r.formId || undefined}
              options={formOptions}
              showSearch={{ optionFilterProp: 'label' }}
              data-testid="cond-form"
              onChange={(v: string) => {
                change(r.id, { formId: v, variable: '', numeric: false });
                void loadColumns(v);
              }}
            />
          ),
        },
        {
          title: wt('窗体控件'),
          width: 220,
          render: (_, r) => {
            const options = [
              { value: 'result', label: wt('处理结果(result)') },
              ...(columns[r.formId] ?? []).map((c) => ({ value: c.key, label: `${c.label}(${c.key})` })),
            ];
            return r.formId === FREE_FORM_ID ? (
              <AutoComplete
                disabled={!editing(r)}
                style={{ width: '100%' }}
                placeholder={wt('请输入窗体控件。')}
                value={r.variable}
                options={options}
                data-testid="cond-variable"
                onChange={(v: string) => change(r.id, { variable: v.trim() })}
              />
            ) : (
              <Select
                disabled={!editing(r)}
                style={{ width: '100%' }}
                placeholder={wt('请输入窗体控件。')}
                value={r.variable || undefined}
                options={options}
                data-testid="cond-variable"
                onChange={(v: string) =>
                  change(r.id, {
                    variable: v,
                    numeric: controlOf(r.formId, v)?.numeric ?? false,
                  })
                }
              />
            );
          },
        },
        {
          title: wt('判断条件'),
          width: 120,
          render: (_, r) => (
            <Select
              disabled={!editing(r)}
              style={{ width: '100%' }}
              placeholder={wt('请输入判断条件。')}
              value={r.conditionalOpt || undefined}
              options={(isResultVariable(r.variable) ? RESULT_OPERATORS : OPERATORS).map((o) => ({
                value: o,
                label: o,
              }))}
              data-testid="cond-operator"
              onChange={(v: Operator) => change(r.id, { conditionalOpt: v })}
            />
          ),
        },
        {
          title: wt('值'),
          width: 200,
          render: (_, r) =>
            isResultVariable(r.variable) ? (
              <Select
                disabled={!editing(r)}
                style={{ width: '100%' }}
                placeholder={wt('请输入值。')}
                value={r.conditionalVal || undefined}
                options={RESULT_VALUES.map((v) => ({ value: v, label: v }))}
                data-testid="cond-value"
                onChange={(v: string) => change(r.id, { conditionalVal: v })}
              />
            ) : (
              <AutoComplete
                disabled={!editing(r)}
                style={{ width: '100%' }}
                placeholder={wt('请输入值。')}
                value={r.conditionalVal}
                data-testid="cond-value"
                onChange={(v: string) => change(r.id, { conditionalVal: v })}
              />
            ),
        },
        {
          title: wt('逻辑'),
          width: 130,
          render: (_, r) => (
            <Select
              disabled={!editing(r)}
              style={{ width: '100%' }}
              value={r.logic}
              options={LOGICS.map((l) => ({ value: l.value, label: wt(l.label) }))}
              data-testid="cond-logic"
              onChange={(v: Logic) => change(r.id, { logic: v })}
            />
          ),
        },
      ]}
    />
  );
  return (
    <Modal
      open
      width={1100}
      title={wt('条件设置')}
      onCancel={props.onCancel}
      onOk={save}
      okButtonProps={{ disabled: props.readOnly }}
      okText={wt('保存')}
      cancelText={wt('取消')}
      destroyOnHidden
    >
      {!props.readOnly && (
        <Space style={{ marginBottom: 8 }}>
          <Button onClick={add} data-testid="cond-add">
            {wt('新增')}
          </Button>
          <Button onClick={remove} disabled={!selected}>
            {wt('删除')}
          </Button>
        </Space>
      )}
      <div style={{ height: 700, overflow: 'auto' }}>{table}</div>
    </Modal>
  );
}
