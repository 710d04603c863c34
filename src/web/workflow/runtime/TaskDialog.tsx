import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Input, Modal, Radio, Select, Space, Spin } from 'antd';
import { useSnapshot } from 'valtio';
import { formDefaults, formPageScreen } from '../../../shared/forms/formPage';
import type { ScreenSchema } from '../../../shared/screens/fields';
import type { FieldError } from '../../../shared/screens/validate';
import { errorMessage } from '../../api/http';
import { notify } from '../../feedback/feedback';
import { i18n } from '../../i18n';
import { RecordForm, useRecordForm } from '../../screens/RecordForm';
import { rt } from './i18n';
import { completeTask, delegateTask, reassignTask, taskDetail, unclaimTask, type TaskDetail } from './api';
import { RESULTS, serverFieldErrors, time, type ResultValue } from './results';
import { dialogFit } from '../../screens/fit/dialogFit';

const TraceDialog = lazy(() => import('./TraceDialog'));

/** A task without a form page fills in nothing: the same form machinery, no fields. */
const NO_FORM: ScreenSchema = {
  schemaVersion: 3,
  id: 'task-no-form',
  title: { 'zh-CN': '', 'en-US': '' },
  resource: { name: 'formData' },
  fields: [],
};

interface Props {
  taskId: string;
  onClose: () => void;
  /** The task was completed or sent back: the lists change. */
  onDone: () => void;
}

/**
 * Opening a task (issue 5): its form page rendered from the page's elements by the generic record
 * form (the same widgets and checks as every screen), the result choice of spec 3 (with the task to
 * send it back to for 退回指定节点), and 流程追踪 of its instance.
 */
export default function TaskDialog({ taskId, onClose, onDone }: Props) {
  return (
    <WithTaskDetail taskId={taskId} title={rt('办理任务')} onClose={onClose}>
      {(detail) => <TaskForm detail={detail} onClose={onClose} onDone={onDone} />}
    </WithTaskDetail>
  );
}

/** A task's dialog once its detail (task, instance, form page) is read: a spinner until then, or why it could not be. */
export function WithTaskDetail(props: {
  taskId: string;
  title: string;
  onClose: () => void;
  children: (detail: TaskDetail) => ReactNode;
}) {
  const { taskId, title, onClose, children } = props;
  const [detail, setDetail] = useState<TaskDetail>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    taskDetail(taskId).then(setDetail, (e: unknown) => setError(errorMessage(e, rt('读取失败'))));
  }, [taskId]);
  if (detail) return children(detail);
  return (
    <Modal open title={title} footer={null} onCancel={onClose}>
      {error ? <Alert type="error" showIcon title={error} /> : <Spin />}
    </Modal>
  );
}

/**
 * A task's form page as the generic record form, and its sending: the server's answer shown as a
 * message, its field errors put back on their fields. The single and the batch dialog both use it.
 */
export function useTaskPage(detail: TaskDetail, onDone: () => void) {
  const page = detail.form;
  const screen = useMemo(() => (page ? formPageScreen(page) : NO_FORM), [page]);
  const form = useRecordForm(screen, page ? formDefaults(page) : {});
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const [saving, setSaving] = useState(false);
  const send = async (call: () => Promise<string>) => {
    setSaving(true);
    try {
      notify.success(await call());
      onDone();
    } catch (e) {
      setServerErrors(serverFieldErrors(e));
      notify.error(errorMessage(e, rt('提交失败')));
    } finally {
      setSaving(false);
    }
  };
  const fields = page ? (
    <RecordForm screen={screen} mode="create" form={form} serverErrors={serverErrors} />
  ) : (
    <p className="task-no-form">{rt('该任务没有表单')}</p>
  );
  return { screen, form, saving, send, fields };
}

function TaskForm({ detail, onClose, onDone }: { detail: TaskDetail; onClose: () => void; onDone: () => void }) {
  useSnapshot(i18n);
  const { task, instance } = detail;
  const { screen, form, saving, send, fields } = useTaskPage(detail, onDone);
  const [result, setResult] = useState<ResultValue>('pass');
  const [target, setTarget] = useState<string>();
  const [tracing, setTracing] = useState(false);

  /** A task sent back is not filled in: its values go as they are (the server still checks their types). */
  const values = () => {
    if (!result.startsWith('rollback_')) return form.check();
    const keys = new Set(screen.fields.map((f) => f.key));
    return Object.fromEntries(Object.entries(form.data).filter(([k, v]) => keys.has(k) && v !== undefined && v !== ''));
  };

  const submit = async () => {
    const variables = values();
    if (!variables) return;
    if (result === 'rollback_define' && !target) return void notify.warning(rt('请选择退回节点'));
    await send(() =>
      completeTask(task.id, { result, variables, ...(result === 'rollback_define' && { targetElementId: target }) }),
    );
  };

  return (
    <Modal
      open
      title={`${rt('办理任务')} - ${task.name ?? task.elementId}`}
      width={760}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      className="task-dialog"
      {...dialogFit}
      footer={[
        <Button key="trace" onClick={() => setTracing(true)}>
          {rt('流程追踪')}
        </Button>,
        <Button key="cancel" onClick={onClose}>
          {rt('取消')}
        </Button>,
        <Button
          key="submit"
          type="primary"
          loading={saving}
          disabled={!detail.mayComplete}
          onClick={() => void submit()}
        >
          {rt('提交')}
        </Button>,
      ]}
    >
      <Descriptions size="small" column={2} className="task-summary">
        <Descriptions.Item label={rt('流程')}>{instance.processName}</Descriptions.Item>
        <Descriptions.Item label={rt('业务编号')}>{instance.businessKey}</Descriptions.Item>
        <Descriptions.Item label={rt('任务名称')}>{task.name}</Descriptions.Item>
        <Descriptions.Item label={rt('创建时间')}>{time(task.createdAt)}</Descriptions.Item>
      </Descriptions>
      {instance.status === 'suspended' && <Alert type="warning" showIcon title={rt('已挂起')} />}
      {fields}
      <div className="task-result">
        <label>{rt('处理结果')}</label>
        <Radio.Group
          value={result}
          onChange={(e) => setResult(e.target.value as ResultValue)}
          data-testid="task-result"
        >
          {RESULTS.map((r) => (
            <Radio
              key={r.value}
              value={r.value}
              disabled={r.value.startsWith('rollback_') && detail.rollbackTargets.length === 0}
            >
              {rt(r.label)}
            </Radio>
          ))}
        </Radio.Group>
        {result === 'rollback_define' && (
          <Select
            value={target}
            onChange={setTarget}
            placeholder={rt('请选择退回节点')}
            style={{ width: 240 }}
            data-testid="rollback-target"
            options={detail.rollbackTargets.map((t) => ({ value: t.elementId, label: t.name ?? t.elementId }))}
          />
        )}
      </div>
      {detail.mayAdminister && <HandOver taskId={task.id} assigned={Boolean(task.assignee)} onDone={onDone} />}
      {tracing && (
        <Suspense fallback={null}>
          <TraceDialog instanceId={instance.id} onClose={() => setTracing(false)} />
        </Suspense>
      )}
    </Modal>
  );
}

type HandOverKind = 'delegate' | 'reassignUser' | 'reassignGroup';

/**
 * 转交 (issue 22): an administrator or the task's owner releases it to its positions, delegates it
 * (the delegate's completion hands it back) or reassigns it to an account or a position. The server
 * checks the account and logs each.
 */
function HandOver({ taskId, assigned, onDone }: { taskId: string; assigned: boolean; onDone: () => void }) {
  const [kind, setKind] = useState<HandOverKind>('reassignUser');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    try {
      notify.success(await action());
      onDone();
    } catch (e) {
      notify.error(errorMessage(e, rt('转交失败')));
    } finally {
      setBusy(false);
    }
  };
  const send = () => {
    const target = to.trim();
    if (!target) return void notify.warning(rt('请填写账号或岗位'));
    void run(() =>
      kind === 'delegate'
        ? delegateTask(taskId, target)
        : reassignTask(taskId, kind === 'reassignUser' ? { userAccount: target } : { candidateGroup: target }),
    );
  };
  return (
    <div className="task-handover" data-testid="task-handover">
      <label>{rt('转交')}</label>
      <Space wrap>
        <Select
          value={kind}
          onChange={setKind}
          style={{ width: 140 }}
          data-testid="handover-kind"
          options={[
            { value: 'reassignUser', label: rt('转办给用户') },
            { value: 'reassignGroup', label: rt('转给岗位') },
            { value: 'delegate', label: rt('委派') },
          ]}
        />
        <Input
          value={to}
          onChange={(e) => setTo(e.target.value)}
          placeholder={kind === 'reassignGroup' ? rt('岗位') : rt('账号')}
          style={{ width: 180 }}
          data-testid="handover-to"
        />
        <Button loading={busy} onClick={send} data-testid="handover-send">
          {rt('转交')}
        </Button>
        {assigned && (
          <Button loading={busy} onClick={() => void run(() => unclaimTask(taskId))} data-testid="handover-release">
            {rt('释放')}
          </Button>
        )}
      </Space>
    </div>
  );
}
