import { useState } from 'react';
import { Button, Modal, Radio } from 'antd';
import { useSnapshot } from 'valtio';
import { i18n } from '../../i18n';
import { dialogFit } from '../../screens/fit/dialogFit';
import { rt } from './i18n';
import { completeTasks, type TaskDetail, type TaskRow } from './api';
import { RESULTS } from './results';
import { useTaskPage, WithTaskDetail } from './TaskDialog';

/** A batch passes or fails its tasks; sending back names each task's own target, so is done one by one. */
const BATCH_RESULTS = RESULTS.filter((r) => r.value === 'pass' || r.value === 'unpass');
type BatchResult = 'pass' | 'unpass';

interface Props {
  tasks: TaskRow[];
  onClose: () => void;
  /** The tasks were completed: the lists change. */
  onDone: () => void;
}

/**
 * 批量办理: the form page of the selected tasks (one kind of task: the first one's page is all of
 * theirs), filled in once and sent with every one of them; the server completes all or none.
 */
export default function BatchTaskDialog({ tasks, onClose, onDone }: Props) {
  return (
    <WithTaskDetail taskId={tasks[0]!.id} title={rt('批量办理')} onClose={onClose}>
      {(detail) => <BatchForm tasks={tasks} detail={detail} onClose={onClose} onDone={onDone} />}
    </WithTaskDetail>
  );
}

function BatchForm({ tasks, detail, onClose, onDone }: Props & { detail: TaskDetail }) {
  useSnapshot(i18n);
  const { form, saving, send, fields } = useTaskPage(detail, onDone);
  const [result, setResult] = useState<BatchResult>('pass');

  const submit = async () => {
    const variables = form.check();
    if (!variables) return;
    await send(() =>
      completeTasks(
        tasks.map((t) => t.id),
        variables,
        result,
      ),
    );
  };

  return (
    <Modal
      open
      title={`${rt('批量办理')} - ${detail.task.name ?? detail.task.elementId} (${tasks.length})`}
      width={760}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      className="task-dialog batch-task-dialog"
      {...dialogFit}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {rt('取消')}
        </Button>,
        <Button key="submit" type="primary" loading={saving} onClick={() => void submit()}>
          {rt('提交')}
        </Button>,
      ]}
    >
      <p className="batch-task-keys">
        {rt('所选任务')}: {tasks.map((t) => t.businessKey ?? t.id).join('、')}
      </p>
      {fields}
      <div className="task-result">
        <label>{rt('处理结果')}</label>
        <Radio.Group value={result} onChange={(e) => setResult(e.target.value as BatchResult)}>
          {BATCH_RESULTS.map((r) => (
            <Radio key={r.value} value={r.value}>
              {rt(r.label)}
            </Radio>
          ))}
        </Radio.Group>
      </div>
    </Modal>
  );
}
