/**
 * The comparators of `npm run bench` (bench/screens.ts): a plain antd Table and a default @rjsf
 * (antd theme) form, built for production like the app, so our renderer is measured against them in
 * the same browser and run. Never part of the app.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Table } from 'antd';
import Form from '@rjsf/antd';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';

declare global {
  interface Window {
    /** Set by the bench: rows to show in the table, or the number of form fields. */
    benchRows?: Record<string, unknown>[];
    benchColumns?: string[];
    benchFields?: number;
    /** Ms from handing the rows to React until the frame after they are on screen. */
    benchRendered?: number;
    showRows?: () => void;
  }
}

/** Calls back after the next frame is painted: a frame, then a task queued behind it. */
function afterPaint(done: () => void) {
  requestAnimationFrame(() => setTimeout(done, 0));
}

/** `virtual`: antd's own virtual rows, as a list page over about 50 rows needs them (the floor of what antd can do). */
function PlainTable({ virtual }: { virtual: boolean }) {
  const [rows, setRows] = useState<Record<string, unknown>[]>([]);
  const [start, setStart] = useState(0);
  useEffect(() => {
    window.showRows = () => {
      setStart(performance.now());
      setRows(window.benchRows ?? []);
    };
  }, []);
  useEffect(() => {
    if (rows.length > 0) afterPaint(() => (window.benchRendered = performance.now() - start));
  }, [rows, start]);
  const columns = (window.benchColumns ?? []).map((key) => ({ key, dataIndex: key, title: key, width: 140, sorter: true }));
  return (
    <Table
      rowKey="id"
      size="small"
      bordered
      columns={columns}
      dataSource={rows}
      pagination={{ pageSize: 500 }}
      virtual={virtual}
      scroll={virtual ? { x: columns.length * 140, y: 600 } : { x: 'max-content' }}
    />
  );
}

function PlainForm() {
  const n = window.benchFields ?? 60;
  const schema: RJSFSchema = {
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i + 1}`, { type: 'string', title: `字段 ${i + 1}` }])),
  };
  const [data, setData] = useState<Record<string, unknown>>({});
  return <Form schema={schema} formData={data} validator={validator} onChange={(e) => setData(e.formData as Record<string, unknown>)} />;
}

/** A bare text input: what a keystroke costs with nothing but the browser behind it. */
function BareInput() {
  const [value, setValue] = useState('');
  return <input id="root_f1" value={value} onChange={(e) => setValue(e.target.value)} />;
}

const view = new URLSearchParams(location.search).get('view');
createRoot(document.getElementById('root')!).render(
  view === 'form' ? <PlainForm /> : view === 'input' ? <BareInput /> : <PlainTable virtual={view === 'virtual'} />,
);
