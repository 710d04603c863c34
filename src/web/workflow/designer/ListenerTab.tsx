import { Button, Input, Select, Space, Table } from 'antd';
import type { BpmnFactoryLike, BusinessObject, DiagramElement, Modeling, Services } from './bpmnTypes';
import { wt, type Zh } from '../i18n';

/**
 * The process panel's listener tab (spec 2.4): Activiti execution listeners, kept as
 * <activiti:executionListener> inside the process's extensionElements beside whatever else is there.
 */
type Kind = 'class' | 'expression' | 'delegateExpression';
interface Listener {
  event: string;
  kind: Kind;
  value: string;
}
interface Extension {
  $type: string;
  get(name: string): unknown;
}

const EVENTS = ['start', 'end', 'take'].map((v) => ({ value: v, label: v }));
const KINDS: { value: Kind; label: Zh }[] = [
  { value: 'class', label: 'Java类' },
  { value: 'expression', label: '表达式' },
  { value: 'delegateExpression', label: '代理表达式' },
];
const LISTENER = 'activiti:ExecutionListener';

function extensionsOf(bo: BusinessObject): Extension[] {
  const ext = bo.get('extensionElements') as { values?: Extension[] } | undefined;
  return ext?.values ?? [];
}

function listenersOf(bo: BusinessObject): Listener[] {
  return extensionsOf(bo)
    .filter((v) => v.$type === LISTENER)
    .map((v) => {
      const kind = (KINDS.find((k) => v.get(k.value))?.value ?? 'class') as Kind;
      return { event: String(v.get('event') ?? 'start'), kind, value: String(v.get(kind) ?? '') };
    });
}

/** Services are looked up when writing: the read-only viewer has no modeling at all. */
export function ListenerTab({
  element,
  services,
  readOnly,
}: {
  element: DiagramElement;
  services: Services;
  readOnly: boolean;
}) {
  const bo = element.businessObject;
  const listeners = listenersOf(bo);
  const write = (next: Listener[]) => {
    const factory = services.get<BpmnFactoryLike>('bpmnFactory');
    const others = extensionsOf(bo).filter((v) => v.$type !== LISTENER);
    const created = next.map((l) => factory.create(LISTENER, { event: l.event, [l.kind]: l.value }));
    const values = [...others, ...created];
    const extensionElements = values.length ? factory.create('bpmn:ExtensionElements', { values }) : undefined;
    services.get<Modeling>('modeling').updateProperties(element, { extensionElements });
  };
  const change = (i: number, patch: Partial<Listener>) =>
    write(listeners.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="listener-tab">
      {!readOnly && (
        <Button size="small" onClick={() => write([...listeners, { event: 'start', kind: 'class', value: '' }])}>
          {wt('添加监听器')}
        </Button>
      )}
      <Table<Listener & { index: number }>
        size="small"
        rowKey="index"
        pagination={false}
        dataSource={listeners.map((l, index) => ({ ...l, index }))}
        columns={[
          {
            title: wt('事件'),
            width: 80,
            render: (_, l) => (
              <Select
                size="small"
                disabled={readOnly}
                value={l.event}
                options={EVENTS}
                onChange={(event) => change(l.index, { event })}
              />
            ),
          },
          {
            title: wt('类型'),
            width: 100,
            render: (_, l) => (
              <Select
                size="small"
                disabled={readOnly}
                value={l.kind}
                options={KINDS.map((k) => ({ value: k.value, label: wt(k.label) }))}
                onChange={(kind: Kind) => change(l.index, { kind })}
              />
            ),
          },
          {
            title: wt('值'),
            render: (_, l) => (
              <Input
                size="small"
                disabled={readOnly}
                value={l.value}
                onChange={(e) => change(l.index, { value: e.target.value })}
              />
            ),
          },
          ...(readOnly
            ? []
            : [
                {
                  title: '',
                  width: 40,
                  render: (_: unknown, l: Listener & { index: number }) => (
                    <Button
                      size="small"
                      type="link"
                      danger
                      onClick={() => write(listeners.filter((_, j) => j !== l.index))}
                    >
                      {wt('删除')}
                    </Button>
                  ),
                },
              ]),
        ]}
      />
    </Space>
  );
}
