import { useState } from 'react';
import { Form, Input, Modal, Select, Table } from 'antd';
import dayjs from 'dayjs';
import type { ModelRow } from './api';
import { wt, type Zh } from './i18n';

/** The list screen's small dialogs (spec 2.4): new model, import, target labs, copy flowchart. */
export const CATEGORIES: { value: number; label: Zh }[] = [
  { value: 1, label: '普检' },
  { value: 2, label: '特检' },
  { value: 3, label: '组织病理' },
  { value: 4, label: '细胞病理' },
  { value: 5, label: '微生物' },
];
export const categoryLabel = (v: number) => {
  const label = CATEGORIES.find((c) => c.value === v)?.label;
  return label ? wt(label) : String(v);
};
const categoryOptions = () => CATEGORIES.map((c) => ({ value: c.value, label: wt(c.label) }));
export const formatTime = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss');

export interface NewModelValues {
  key: string;
  name: string;
  descp?: string;
  category: number;
}

export function NewModelDialog({
  busy,
  onOk,
  onCancel,
}: {
  busy: boolean;
  onOk: (v: NewModelValues) => void;
  onCancel: () => void;
}) {
  const [form] = Form.useForm<NewModelValues>();
  return (
    <Modal
      open
      title={wt('新增模型')}
      confirmLoading={busy}
      okButtonProps={{ disabled: busy }}
      onCancel={onCancel}
      onOk={() => void form.validateFields().then(onOk)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ category: 2 }} preserve={false}>
        <Form.Item
          name="key"
          label={wt('流程标识(key)')}
          rules={[
            { required: true, message: wt('请输入流程标识') },
            {
              pattern: /^[A-Za-z_][A-Za-z0-9_.-]*$/,
              message: wt('以字母或下划线开头，只含字母、数字、_ . -'),
            },
          ]}
        >
          <Input maxLength={64} data-testid="new-key" />
        </Form.Item>
        <Form.Item
          name="name"
          label={wt('流程名称')}
          rules={[{ required: true, whitespace: true, message: wt('请输入流程名称') }]}
        >
          <Input maxLength={100} data-testid="new-name" />
        </Form.Item>
        <Form.Item name="descp" label={wt('描述')}>
          <Input.TextArea maxLength={500} />
        </Form.Item>
        <Form.Item name="category" label={wt('类别')}>
          <Select options={categoryOptions()} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function ImportDialog({
  rows,
  busy,
  onOk,
  onCancel,
}: {
  rows: ModelRow[];
  busy: boolean;
  onOk: (ids: string[]) => void;
  onCancel: () => void;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  return (
    <Modal
      open
      width={900}
      title={wt('导入公共数据')}
      confirmLoading={busy}
      okButtonProps={{ disabled: busy }}
      onCancel={onCancel}
      onOk={() => onOk(chosen)}
    >
      <Table<ModelRow>
        rowKey="id"
        size="small"
        dataSource={rows}
        pagination={false}
        scroll={{ y: 400 }}
        rowSelection={{ selectedRowKeys: chosen, onChange: (keys) => setChosen(keys as string[]) }}
        columns={[
          { title: wt('流程标识'), dataIndex: 'key' },
          { title: wt('流程名称'), dataIndex: 'name' },
          { title: wt('版本'), dataIndex: 'version', width: 80 },
          { title: wt('类别'), dataIndex: 'category', render: categoryLabel, width: 100 },
          { title: wt('最后更新时间'), dataIndex: 'lastUpdateTime', render: formatTime, width: 180 },
        ]}
      />
    </Modal>
  );
}

export function LabsDialog({
  labs,
  busy,
  onOk,
  onCancel,
}: {
  labs: { id: number; name: string }[];
  busy: boolean;
  onOk: (ids: number[]) => void;
  onCancel: () => void;
}) {
  const [chosen, setChosen] = useState<number[]>([]);
  return (
    <Modal
      open
      title={wt('选择下发实验室')}
      confirmLoading={busy}
      okButtonProps={{ disabled: busy }}
      onCancel={onCancel}
      onOk={() => onOk(chosen)}
    >
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        placeholder={wt('请选择实验室')}
        data-testid="labs-select"
        value={chosen}
        onChange={setChosen}
        options={labs.map((l) => ({ value: l.id, label: l.name }))}
      />
    </Modal>
  );
}

export function CopyDialog({
  target,
  rows,
  busy,
  onOk,
  onCancel,
}: {
  target: ModelRow;
  rows: ModelRow[];
  busy: boolean;
  onOk: (source: ModelRow) => void;
  onCancel: () => void;
}) {
  const [source, setSource] = useState<string>();
  const options = rows
    .filter((r) => r.id !== target.id && r.hasXml)
    .map((r) => ({ value: r.id, label: `${r.name}（${r.key}）` }));
  return (
    <Modal
      open
      title={wt('从其他流程拷贝流程图')}
      confirmLoading={busy}
      okButtonProps={{ disabled: !source || busy }}
      onCancel={onCancel}
      onOk={() => onOk(rows.find((r) => r.id === source)!)}
    >
      <Select
        style={{ width: '100%' }}
        placeholder={wt('请选择要拷贝的流程')}
        value={source}
        onChange={setSource}
        options={options}
      />
    </Modal>
  );
}
