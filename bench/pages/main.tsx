/**
 * The comparators of `npm run bench` (bench/screens.ts): a plain antd Table and a default @rjsf
 * (antd theme) form, built for production like the app, so our renderer is measured against them in
 * the same browser and run. Never part of the app.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Button, Modal, Space, Table, type TableColumnsType } from 'antd';
import Form from '@rjsf/antd';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';

declare global {
  interface Window {
    /** Set by the bench: rows to show in the table, or the number of form fields. */
    benchRows?: Record<string, unknown>[];
    benchColumns?: string[];
    benchFields?: number;
    /** Ms from handing the rows to React until the frame after they are on screen; 0 once emptied. */
    benchRendered?: number;
    showRows?: () => void;
    clearRows?: () => void;
  }
}

/** Calls back after the next frame is painted: a frame, then a task queued behind it. */
function afterPaint(done: () => void) {
  requestAnimationFrame(() => setTimeout(done, 0));
}

type TableView = 'columns' | 'page' | 'virtual';

/**
 * `columns`: the twelve columns alone. `page`: the list page a plain antd screen would draw of the same
 * rows, a selection column and each row's edit and delete link-buttons beside the columns, all rows
 * rendered. `virtual`: the page with antd's own virtual rows (the floor of what antd can do).
 * The table is emptied and filled again in the same page each run, so every run is warm, as ours is.
 */
function PlainTable({ view }: { view: TableView }) {
  const [rows, setRows] = useState<Record<string, unknown>[]>([]);
  const [start, setStart] = useState(0);
  useEffect(() => {
    window.showRows = () => {
      setStart(performance.now());
      setRows(window.benchRows ?? []);
    };
    window.clearRows = () => setRows([]);
  }, []);
  useEffect(() => {
    afterPaint(() => (window.benchRendered = rows.length > 0 ? performance.now() - start : 0));
  }, [rows, start]);
  const columns: TableColumnsType<Record<string, unknown>> = (window.benchColumns ?? []).map((key) => ({
    key,
    dataIndex: key,
    title: key,
    width: 140,
    sorter: true,
  }));
  const page = view !== 'columns';
  if (page)
    columns.push({
      key: '$actions',
      title: '操作',
      width: 160,
      fixed: 'right',
      render: () => (
        <Space size={0}>
          <Button type="link" size="small">
            编辑
          </Button>
          <Button type="link" size="small" danger>
            删除
          </Button>
        </Space>
      ),
    });
  const virtual = view === 'virtual';
  return (
    <Table
      rowKey="id"
      size="small"
      bordered
      columns={columns}
      dataSource={rows}
      pagination={{ pageSize: 500 }}
      rowSelection={page ? { type: 'checkbox' } : undefined}
      virtual={virtual}
      scroll={virtual ? { x: columns.length * 140 + 100, y: 600 } : { x: 'max-content' }}
    />
  );
}

/** `dialog`: the form in an antd Modal as wide as our record dialog, as our form is measured. */
function PlainForm({ dialog }: { dialog: boolean }) {
  const n = window.benchFields ?? 60;
  const schema: RJSFSchema = {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`f${i + 1}`, { type: 'string', title: `字段 ${i + 1}` }]),
    ),
  };
  const [data, setData] = useState<Record<string, unknown>>({});
  const form = (
    <Form
      schema={schema}
      formData={data}
      validator={validator}
      onChange={(e) => setData(e.formData as Record<string, unknown>)}
    />
  );
  return dialog ? (
    <Modal open title="新增" width={1000} footer={null}>
      {form}
    </Modal>
  ) : (
    form
  );
}

/** A bare text input: what a keystroke costs with nothing but the browser behind it. */
function BareInput() {
  const [value, setValue] = useState('');
  return <input id="root_f1" value={value} onChange={(e) => setValue(e.target.value)} />;
}

const view = new URLSearchParams(location.search).get('view');
createRoot(document.getElementById('root')!).render(
  view === 'form' || view === 'dialog' ? (
    <PlainForm dialog={view === 'dialog'} />
  ) : view === 'input' ? (
    <BareInput />
  ) : (
    <PlainTable view={(view ?? 'columns') as TableView} />
  ),
);
