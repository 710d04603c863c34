import { getResult, http, type Result } from '../../api/http';
import { arrivedForScreen, readForScreen } from '../../api/earlyReads';
import type { FormPage } from '../../../shared/forms/formPage';
import type { InstanceStatus } from '../../../shared/workflow/instanceStatus';

/** The calls of the running workflow (issue 5): tasks, their forms, traces, and the workflow manager. */
export type { InstanceStatus };

export interface TaskRow {
  id: string;
  instanceId: string;
  elementId: string;
  name: string | null;
  formKey: string | null;
  candidateGroups: string[];
  assignee: string | null;
  status: 'active' | 'complete' | 'rollback' | 'cancelled';
  createdAt: string;
  completedAt: string | null;
  result: string | null;
  processKey: string;
  processName: string;
  businessKey: string | null;
  instanceStatus: InstanceStatus;
  /** The specimen whose barcode is the business key: patient and the items ordered. */
  patientName?: string;
  items?: string;
}

export interface TaskDetail {
  task: TaskRow;
  instance: { id: string; processKey: string; processName: string; businessKey: string | null; status: InstanceStatus };
  form: FormPage | null;
  rollbackTargets: { elementId: string; name: string | null }[];
  mayComplete: boolean;
  /** An administrator or the task's owner may release, delegate or reassign it. */
  mayAdminister: boolean;
}

export interface HistoryRow {
  elementId: string;
  elementType: string | null;
  event: 'start' | 'end' | 'complete' | 'rollback' | 'terminate';
  userName: string | null;
  result: string | null;
  targetElementId: string | null;
  at: string;
}

export interface Trace {
  bpmnXml: string | null;
  processKey: string;
  businessKey: string | null;
  status: InstanceStatus;
  finished: string[];
  active: string[];
  history: HistoryRow[];
}

export interface DeploymentRow {
  id: string;
  key: string;
  name: string;
  version: number;
  orgName: string | null;
  category: number | null;
  deployedAt: string;
  deployedBy: string | null;
  running: number;
}

export interface InstanceRow {
  id: string;
  processKey: string;
  processName: string;
  version: number;
  businessKey: string | null;
  status: InstanceStatus;
  parentId: string | null;
  startedBy: string | null;
  startedAt: string;
  endedAt: string | null;
  currentTasks: string[];
}

export const TODO_TASKS_URL = '/api/workflow/task/todo';
export const DONE_TASKS_URL = '/api/workflow/task/done';
export const todoTasks = () => readForScreen<TaskRow[]>(TODO_TASKS_URL);
export const doneTasks = () => readForScreen<TaskRow[]>(DONE_TASKS_URL);

/** Both task lists, when those read at sign-in have already come (earlyReads.ts). */
export function arrivedTasks(): { todo: TaskRow[]; done: TaskRow[] } | undefined {
  const todo = arrivedForScreen<TaskRow[]>(TODO_TASKS_URL);
  const done = arrivedForScreen<TaskRow[]>(DONE_TASKS_URL);
  return todo && done ? { todo, done } : undefined;
}
export const taskDetail = (id: string) => getResult<TaskDetail>(`/api/workflow/task/${encodeURIComponent(id)}`);
export const processTrace = (id: string) => getResult<Trace>(`/api/workflow/process/${encodeURIComponent(id)}/trace`);
export const deployments = () => getResult<DeploymentRow[]>('/api/workflow/deployments');
export const instances = (params: { status?: string; businessKey?: string; page: number; size: number }) =>
  getResult<{ records: InstanceRow[]; total: number }>('/api/workflow/process/list', params);

/** Answers the server's message (in the user's language) for the success notice. */
async function post(url: string, body?: object): Promise<string> {
  const { data } = await http.post<Result<unknown>>(url, body ?? {});
  return data.resultMessage;
}

export const claimTask = (id: string) => post(`/api/workflow/task/${encodeURIComponent(id)}/claim`);
/** Tasks of one kind completed together with the same form values (批量办理): all or none. */
export const completeTasks = (taskIds: string[], variables: Record<string, unknown>, result: 'pass' | 'unpass') =>
  post('/api/workflow/task/batchComplete', { taskIds, variables, result });
/** Task administration (issue 22): back to the pool, delegated for now, or given for good. */
export const unclaimTask = (id: string) => post(`/api/workflow/task/${encodeURIComponent(id)}/unclaim`);
export const delegateTask = (id: string, userAccount: string) =>
  post(`/api/workflow/task/${encodeURIComponent(id)}/delegate`, { userAccount });
export const reassignTask = (id: string, to: { userAccount?: string; candidateGroup?: string }) =>
  post(`/api/workflow/task/${encodeURIComponent(id)}/reassign`, to);
export const completeTask = (
  id: string,
  body: { result?: string; variables: Record<string, unknown>; targetElementId?: string },
) => post(`/api/workflow/task/${encodeURIComponent(id)}/complete`, body);
export const suspendInstance = (id: string) => post(`/api/workflow/process/${encodeURIComponent(id)}/suspend`);
export const resumeInstance = (id: string) => post(`/api/workflow/process/${encodeURIComponent(id)}/resume`);
export async function deleteInstance(id: string): Promise<string> {
  const { data } = await http.delete<Result<null>>(`/api/workflow/process/${encodeURIComponent(id)}`);
  return data.resultMessage;
}
export const startProcess = (body: {
  deploymentId: string;
  businessKey: string | null;
  variables: Record<string, unknown>;
}) => post('/api/workflow/process/start', body);

/** Form pages (spec 7.6) for the form data demo. */
export const formInfos = () => getResult<{ id: number; pageName: string }[]>('/api/form/findAllFormInfos');
export const formPage = (id: number) => getResult<FormPage>('/api/form/getFormInfo', { id });
export const insertFormData = (formId: number, data: Record<string, unknown>) =>
  post('/api/form/insertFormData', { formId, data });
export const savedFormData = (formId: number) =>
  getResult<{
    records: { id: string; data: Record<string, unknown>; createdBy: string | null; createFormTime: string }[];
    total: number;
  }>('/api/form/findTbAllData', {
    formId,
    size: 100,
  });
