import { useEffect, useState } from 'react';
import { Button, Form, Input, InputNumber, Select, Space, Tabs, Typography } from 'antd';
import { passWeightCondition, passWeightOf, parseExpression } from '../../../shared/expression/conditions';
import type { FormControl, Lookup } from '../api';
import type { BpmnFactoryLike, DiagramElement, Modeling, Services } from './bpmnTypes';
import { ConditionDialog } from './ConditionDialog';
import { FlowOrderDialog } from './FlowOrderDialog';
import { ListenerTab } from './ListenerTab';
import { wt, type Zh } from '../i18n';

/**
 * The workflow properties of the selected element (spec 2.4, 3), beside bpmn-js-properties-panel's
 * general group: user task form, positions, multi-instance and priority; call activity; gateway flow
 * order; sequence-flow jump condition; process starters. readOnly shows the same fields disabled.
 */
export interface PanelData {
  forms: Lookup<{ id: number | string; pageName: string }>;
  positions: Lookup<{ id: number; name: string }>;
  /** The specimen steps a task's completion may perform (lims:specimenStep). */
  steps: Lookup<{ name: string; label: string }>;
  /** The controls of one of those form pages, typed, for the condition builder. */
  controls: (formId: string) => Promise<FormControl[]>;
}

const GATEWAYS = ['bpmn:ExclusiveGateway', 'bpmn:InclusiveGateway', 'bpmn:ParallelGateway', 'bpmn:ComplexGateway'];
const CONDITION_SOURCES = ['bpmn:ExclusiveGateway', 'bpmn:InclusiveGateway', 'bpmn:ComplexGateway'];
const MI_TYPES: { value: string; label: Zh }[] = [
  { value: 'None', label: '非多实例' },
  { value: 'Parallel', label: '同时进行' },
  { value: 'Sequential', label: '顺序进行' },
];

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** Condition jumps apply to flows leaving an activity or an exclusive, inclusive or complex gateway. */
function takesCondition(flow: DiagramElement): boolean {
  const source = flow.businessObject.sourceRef;
  if (!source) return false;
  return CONDITION_SOURCES.includes(source.$type) || /Task$|CallActivity$|SubProcess$/.test(source.$type);
}

export function ElementPanel({
  services,
  element,
  readOnly,
  data,
}: {
  services: Services;
  element: DiagramElement | undefined;
  readOnly: boolean;
  data: PanelData;
}) {
  const [, setTick] = useState(0);
  const [dialog, setDialog] = useState<'condition' | 'order'>();
  useEffect(() => {
    const refresh = () => setTick((n) => n + 1);
    services.on('elements.changed', refresh);
    return () => services.off('elements.changed', refresh);
  }, [services]);
  if (!element) return null;
  const bo = element.businessObject;
  const update = (props: Record<string, unknown>) =>
    services.get<Modeling>('modeling').updateProperties(element, props);
  const factory = () => services.get<BpmnFactoryLike>('bpmnFactory');

  const setMultiInstance = (
    type: string,
    weight = passWeightOf(bo.loopCharacteristics?.completionCondition?.body) ?? 100,
  ) => {
    if (type === 'None') return update({ loopCharacteristics: undefined });
    const condition = factory().create('bpmn:FormalExpression', { body: passWeightCondition(weight) });
    const loop = factory().create('bpmn:MultiInstanceLoopCharacteristics', {
      isSequential: type === 'Sequential',
      'activiti:collection': '${assigneeList}',
      'activiti:elementVariable': 'assignee',
      completionCondition: condition,
    });
    update({ loopCharacteristics: loop });
  };
  const loop = bo.loopCharacteristics;
  const miType =
    !loop || loop.$type !== 'bpmn:MultiInstanceLoopCharacteristics'
      ? 'None'
      : loop.isSequential
        ? 'Sequential'
        : 'Parallel';
  const multiInstance = (
    <>
      <Form.Item label={wt('多实例类型')}>
        <Select
          aria-label={wt('多实例类型')}
          disabled={readOnly}
          value={miType}
          options={MI_TYPES.map((o) => ({ value: o.value, label: wt(o.label) }))}
          onChange={(v) => setMultiInstance(v)}
          data-testid="mi-type"
        />
      </Form.Item>
      {miType !== 'None' && (
        <Form.Item label={wt('通过权重[1-100]')}>
          <InputNumber
            aria-label={wt('通过权重[1-100]')}
            disabled={readOnly}
            min={1}
            max={100}
            value={passWeightOf(loop?.completionCondition?.body) ?? 100}
            onChange={(v) => v && setMultiInstance(miType, v)}
          />
        </Form.Item>
      )}
    </>
  );

  let fields: React.ReactNode = null;
  if (element.type === 'bpmn:UserTask') {
    const groups = str(bo.get('activiti:candidateGroups')).split(',').filter(Boolean);
    fields = (
      <>
        <Form.Item
          label={wt('表单(formKey)')}
          required
          help={data.forms.unavailable ? wt('无法读取表单页面') : undefined}
        >
          <Select
            aria-label={wt('表单(formKey)')}
            disabled={readOnly}
            allowClear
            showSearch
            optionFilterProp="label"
            data-testid="form-key"
            value={str(bo.get('activiti:formKey')) || undefined}
            options={data.forms.items.map((f) => ({ value: String(f.id), label: f.pageName }))}
            onChange={(v?: string) => update({ 'activiti:formKey': v || undefined })}
          />
        </Form.Item>
        <Form.Item
          label={wt('岗位(candidateGroups)')}
          help={data.positions.unavailable ? wt('无法读取实验室岗位') : undefined}
        >
          <Select
            aria-label={wt('岗位(candidateGroups)')}
            disabled={readOnly}
            mode="multiple"
            data-testid="candidate-groups"
            placeholder={wt('没有受让人')}
            optionFilterProp="label"
            value={groups}
            options={data.positions.items.map((p) => ({ value: String(p.id), label: p.name }))}
            onChange={(v: string[]) => update({ 'activiti:candidateGroups': v.length ? v.join(',') : undefined })}
          />
        </Form.Item>
        <Form.Item
          label={wt('标本环节')}
          help={data.steps.unavailable ? wt('无法读取标本环节') : wt('完成任务时标本进入此环节')}
        >
          <Select
            aria-label={wt('标本环节')}
            disabled={readOnly}
            allowClear
            data-testid="specimen-step"
            placeholder={wt('无')}
            value={str(bo.get('lims:specimenStep')) || undefined}
            options={data.steps.items.map((s) => ({ value: s.name, label: s.label }))}
            onChange={(v?: string) => update({ 'lims:specimenStep': v || undefined })}
          />
        </Form.Item>
        {multiInstance}
        <Form.Item label={wt('优先级[1-100]')}>
          <InputNumber
            aria-label={wt('优先级[1-100]')}
            disabled={readOnly}
            min={1}
            max={100}
            value={Number(bo.get('activiti:priority')) || undefined}
            onChange={(v) => update({ 'activiti:priority': v ? String(v) : undefined })}
          />
        </Form.Item>
      </>
    );
  } else if (element.type === 'bpmn:CallActivity') {
    fields = (
      <>
        <Form.Item label={wt('调用流程(calledElement)')}>
          <Input
            aria-label={wt('调用流程(calledElement)')}
            disabled={readOnly}
            value={str(bo.calledElement)}
            onChange={(e) => update({ calledElement: e.target.value || undefined })}
          />
        </Form.Item>
        {multiInstance}
      </>
    );
  } else if (GATEWAYS.includes(element.type)) {
    const order = str(bo.get('lims:sequenceFlowOrder'));
    fields = (
      <Form.Item label={wt('连线顺序')}>
        <Space>
          <Typography.Text data-testid="flow-order-label">
            {order ? wt('连线排序设置') : wt('无连线顺序设置')}
          </Typography.Text>
          <Button size="small" onClick={() => setDialog('order')}>
            {readOnly ? wt('查看') : wt('排序')}
          </Button>
        </Space>
      </Form.Item>
    );
  } else if (element.type === 'bpmn:SequenceFlow' && takesCondition(element)) {
    const body = str(bo.conditionExpression?.body);
    fields = (
      <>
        <Form.Item label={wt('跳转条件')}>
          <Input.TextArea
            disabled={readOnly}
            data-testid="condition-text"
            autoSize
            value={body}
            onChange={(e) =>
              update({
                conditionExpression: e.target.value
                  ? factory().create('bpmn:FormalExpression', { body: e.target.value })
                  : undefined,
              })
            }
          />
        </Form.Item>
        <Form.Item label={wt('表单(formId)')}>
          <Typography.Text>{str(bo.get('lims:formId')) || '-'}</Typography.Text>
        </Form.Item>
        <Button onClick={() => setDialog('condition')} data-testid="open-condition">
          {wt('条件设置')}
        </Button>
        {dialog === 'condition' && (
          <ConditionDialog
            readOnly={readOnly}
            forms={data.forms.items}
            loadControls={data.controls}
            initial={parseExpression(body, str(bo.get('lims:formId'))) ?? []}
            onCancel={() => setDialog(undefined)}
            onSave={({ expression, formId }) => {
              update({
                conditionExpression: expression
                  ? factory().create('bpmn:FormalExpression', { body: expression })
                  : undefined,
                'lims:formId': formId || undefined,
              });
              setDialog(undefined);
            }}
          />
        )}
      </>
    );
  } else if (element.type === 'bpmn:Process') {
    const basics = (
      <>
        <Form.Item label={wt('流程名称')}>
          <Input disabled value={str(bo.name)} />
        </Form.Item>
        <Form.Item label={wt('命名空间')}>
          <Input
            disabled={readOnly}
            value={str(bo.$parent?.targetNamespace)}
            onChange={(e) =>
              bo.$parent &&
              services
                .get<Modeling>('modeling')
                .updateModdleProperties?.(element, bo.$parent, { targetNamespace: e.target.value })
            }
          />
        </Form.Item>
        <Form.Item label={wt('启动岗位')}>
          <Input
            disabled={readOnly}
            value={str(bo.get('activiti:candidateStarterGroups'))}
            onChange={(e) => update({ 'activiti:candidateStarterGroups': e.target.value || undefined })}
          />
        </Form.Item>
        <Form.Item label={wt('启动用户')}>
          <Input
            disabled={readOnly}
            value={str(bo.get('activiti:candidateStarterUsers'))}
            onChange={(e) => update({ 'activiti:candidateStarterUsers': e.target.value || undefined })}
          />
        </Form.Item>
      </>
    );
    fields = (
      <Tabs
        size="small"
        items={[
          { key: 'basic', label: wt('基本信息'), children: basics },
          {
            key: 'listeners',
            label: wt('监听器'),
            children: <ListenerTab element={element} services={services} readOnly={readOnly} />,
          },
        ]}
      />
    );
  }
  return (
    <Form layout="vertical" size="small" className="lims-element-panel" data-testid="lims-panel">
      {fields}
      {dialog === 'order' && GATEWAYS.includes(element.type) && (
        <FlowOrderDialog
          readOnly={readOnly}
          flows={(element.outgoing ?? []).map((f) => ({ id: f.id, name: f.businessObject.name ?? f.id }))}
          order={str(bo.get('lims:sequenceFlowOrder')).split(',').filter(Boolean)}
          onCancel={() => setDialog(undefined)}
          onSave={(ids) => {
            update({ 'lims:sequenceFlowOrder': ids.join(',') });
            setDialog(undefined);
          }}
        />
      )}
    </Form>
  );
}
