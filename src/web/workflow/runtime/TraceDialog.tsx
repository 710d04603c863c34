import { useEffect, useState } from 'react';
import { Alert, Modal, Spin, Table, Tag, type TableColumnsType } from 'antd';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css';
import './trace.css';
import { errorMessage } from '../../api/http';
import { useSnapshot } from 'valtio';
import { i18n } from '../../i18n';
import { rt, type Word } from './i18n';
import { processTrace, type HistoryRow, type Trace } from './api';
import { resultLabel, statusOf, time } from './results';

/**
 * 流程追踪 (issue 5): the deployed diagram of an instance in bpmn-js's NavigatedViewer, elements and
 * flows passed marked green and the tasks waiting now orange, with the history table (who, when,
 * result). Loaded lazily: bpmn-js stays out of the dashboard and shell bundles.
 */
interface Registry {
  get(id: string): { businessObject?: { name?: string } } | undefined;
}
interface CanvasApi {
  zoom(level: 'fit-viewport'): void;
  addMarker(id: string, marker: string): void;
}

/**
 * The diagram with its markers; answers the element names for the history table once imported. The
 * canvas is kept in state (a callback ref): the modal may mount its content after the trace arrived,
 * and the viewer must be made whenever both are there, in either order.
 */
function useViewer(trace: Trace | undefined, onNames: (names: Map<string, string>) => void) {
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    if (!trace?.bpmnXml || !container) return;
    const viewer = new NavigatedViewer({ container });
    let alive = true;
    viewer.importXML(trace.bpmnXml).then(
      () => {
        if (!alive) return;
        const canvas = viewer.get<CanvasApi>('canvas');
        const registry = viewer.get<Registry>('elementRegistry');
        canvas.zoom('fit-viewport');
        for (const id of trace.finished) if (registry.get(id)) canvas.addMarker(id, 'trace-finished');
        for (const id of trace.active) if (registry.get(id)) canvas.addMarker(id, 'trace-active');
        const ids = new Set([
          ...trace.history.map((h) => h.elementId),
          ...trace.history.map((h) => h.targetElementId ?? ''),
        ]);
        onNames(new Map([...ids].map((id) => [id, registry.get(id)?.businessObject?.name ?? id])));
      },
      (e: unknown) => alive && setProblem(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      alive = false;
      viewer.destroy();
    };
  }, [trace, container, onNames]);
  return { setContainer, problem };
}

/** What a history row says happened, in the lab's words. */
function eventLabel(row: HistoryRow): Word {
  if (row.elementType === 'Process') return row.event === 'terminate' ? '流程终止' : '流程启动';
  if (row.elementType === 'EndEvent') return '流程结束';
  if (row.event === 'complete') return '已办理';
  if (row.event === 'rollback') return '已退回';
  // The task's arrival: what became of it is the task's next row (办理, 退回), so not "waiting".
  return '到达';
}

/** The rows a person reads: the process start and end (or its termination), and every arrival, completion and rollback at a user task. */
const shown = (h: HistoryRow) =>
  h.elementType === 'Process' || h.elementType === 'EndEvent' || (h.elementType === 'UserTask' && h.event !== 'end');

export default function TraceDialog({ instanceId, onClose }: { instanceId: string; onClose: () => void }) {
  useSnapshot(i18n);
  const [trace, setTrace] = useState<Trace>();
  const [error, setError] = useState<string>();
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const { setContainer, problem } = useViewer(trace, setNames);
  useEffect(() => {
    processTrace(instanceId).then(setTrace, (e: unknown) => setError(errorMessage(e, rt('读取失败'))));
  }, [instanceId]);
  const name = (id: string | null) => (id ? (names.get(id) ?? id) : '');

  const columns: TableColumnsType<HistoryRow & { key: number }> = [
    {
      key: 'node',
      title: rt('节点'),
      render: (_, row) => (row.elementType === 'Process' ? (trace?.processKey ?? '') : name(row.elementId)),
    },
    { key: 'event', title: rt('事件'), width: 100, render: (_, row) => rt(eventLabel(row)) },
    { key: 'user', title: rt('处理人'), dataIndex: 'userName', width: 110 },
    { key: 'at', title: rt('时间'), width: 170, render: (_, row) => time(row.at) },
    { key: 'result', title: rt('结果'), width: 150, render: (_, row) => resultLabel(row.result) },
    { key: 'target', title: rt('退回至'), width: 120, render: (_, row) => name(row.targetElementId) },
  ];
  const status = trace && statusOf(trace.status);
  return (
    <Modal
      open
      title={rt('流程追踪')}
      width="90%"
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      className="trace-dialog"
    >
      {error && <Alert type="error" showIcon title={error} />}
      {!trace && !error && <Spin />}
      {trace && (
        <>
          <div className="trace-legend">
            <span>
              {trace.processKey} {trace.businessKey ?? ''} {status && <Tag color={status.color}>{status.label}</Tag>}
            </span>
            <span className="finished">{rt('已完成')}</span>
            <span className="active">{rt('进行中')}</span>
          </div>
          {problem && <Alert type="warning" showIcon title={problem} />}
          <div ref={setContainer} className="trace-canvas" data-testid="trace-canvas" />
          <Table
            rowKey="key"
            size="small"
            pagination={false}
            columns={columns}
            dataSource={trace.history.map((h, i) => ({ ...h, key: i })).filter(shown)}
            scroll={{ y: 260 }}
            data-testid="trace-history"
          />
        </>
      )}
    </Modal>
  );
}
