import { AxiosError, type AxiosResponse } from 'axios';
import { isNumericControl } from '../../shared/forms/formPage';
import { getResult, http, type Result } from '../api/http';

/** The process-model calls of spec 7.5 as the list screen and the designer use them. */
export interface ModelRow {
  id: string;
  modelId: string;
  orgId: number;
  key: string;
  name: string;
  version: number;
  code: string | null;
  syncFlag: number;
  newVersion: number;
  category: number;
  descp: string | null;
  deploymentId: string | null;
  hasXml: boolean;
  lastUpdateTime: string;
}

export interface ListParams {
  orgId: number;
  searchKeyWord?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** Spec 7.5: only resultCode 200 is success; another envelope, even in an HTTP 200, is a refusal with its message. */
function succeeded<T>(res: AxiosResponse<Result<T>>): Result<T> {
  if (res.data?.resultCode !== 200)
    throw new AxiosError(res.data?.resultMessage, AxiosError.ERR_BAD_RESPONSE, res.config, res.request, res);
  return res.data;
}

export const listModels = (params: ListParams) => getResult<ModelRow[]>('/api/workflow/model/list', params);

export async function insertModel(body: {
  key: string;
  name: string;
  category: number;
  descp?: string;
  orgId: number;
}) {
  return succeeded(await http.post<Result<ModelRow>>('/api/workflow/model/insert', body));
}

export const modelXml = (id: string) =>
  getResult<{ bpmnXml: string; svgXml: string | null; name: string; key: string }>(`/api/workflow/model/${id}/xml`);

/** Saved form-encoded, as the spec's server reads it (.bpmn20.xml text, UTF-8). */
export async function saveModelXml(id: string, bpmnXml: string, svgXml: string) {
  const body = new URLSearchParams({ bpmn_xml: bpmnXml, svg_xml: svgXml });
  return succeeded(
    await http.post<Result<ModelRow>>(`/api/workflow/model/${id}/xml/save`, body, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    }),
  );
}

export async function deleteModel(modelId: string) {
  return succeeded(await http.get<Result<null>>('/api/workflow/deleteModel', { params: { modelId } }));
}

export async function deployModel(modelId: string) {
  return succeeded(
    await http.get<Result<{ deploymentId: string }>>('/api/workflow/model/deploy', { params: { modelId } }),
  );
}

interface Done {
  code: number;
  message: string;
}

export async function syncModels(ids: string[], syncFlag: 1 | 2) {
  const { data } = await http.post<Done>('/api/workflow/syncModel', { ids: ids.join(','), syncFlag });
  return data;
}

export async function issueModels(ids: string[], orgIds: number[]) {
  const { data } = await http.post<Done>('/api/workflow/issueModel', {
    ids: ids.join(','),
    orgIds: orgIds.join(','),
  });
  return data;
}

export const organizations = () => getResult<{ id: number; name: string; labType: string }[]>('/api/organization/all');

/** Lab data the designer offers; each degrades to "not available" when the call is missing or refused. */
export interface Lookup<T> {
  items: T[];
  unavailable: boolean;
}

async function lookup<T>(load: () => Promise<T[]>): Promise<Lookup<T>> {
  try {
    return { items: await load(), unavailable: false };
  } catch (e) {
    if (e instanceof AxiosError && e.response && e.response.status < 500) return { items: [], unavailable: true };
    throw e;
  }
}

/** The specimen steps a user task may perform when completed (the specimen lifecycle's transitions). */
export const specimenSteps = () =>
  lookup(() => getResult<{ name: string; label: string }[]>('/api/workflow/specimen-steps'));

export const formPages = (orgId: number) =>
  lookup(() => getResult<{ id: number | string; pageName: string }[]>('/api/form/findAllFormInfos', { orgId }));

async function formColumns(id: string): Promise<Record<string, string>> {
  const text = await getResult<string>('/api/form/findFormColsById', { id });
  return (typeof text === 'string' ? JSON.parse(text) : text) as Record<string, string>;
}

/** A control of a form page as the condition builder offers it; numeric undefined when its type is unknown. */
export interface FormControl {
  key: string;
  label: string;
  numeric: boolean | undefined;
}

/**
 * The controls of a form page with whether each holds a number. findFormColsById (spec 7.6) answers
 * key → label only, so the type comes from the page's elements as declared in the element list; when
 * those cannot be read the controls are still offered, with their type unknown.
 */
export async function formControls(formId: string, orgId: number): Promise<FormControl[]> {
  const [labels, types] = await Promise.all([
    formColumns(formId),
    elementTypes(formId, orgId).catch((e: unknown) => {
      console.error('获取窗体控件类型失败', e);
      return undefined;
    }),
  ]);
  return Object.entries(labels).map(([key, label]) => ({
    key,
    label,
    numeric: types ? (types.get(key) ?? false) : undefined,
  }));
}

async function elementTypes(formId: string, orgId: number): Promise<Map<string, boolean>> {
  // The base organisation's forms are read through the basic flag, like its other public data (spec 6).
  const page = await getResult<{
    records: { logicalName: string; controlType?: string | null; numeric?: boolean | null }[];
  }>('/api/resources/formElement', { formId, size: 1000, ...(orgId === 0 && { basic: 1 }) });
  return new Map(page.records.map((r) => [r.logicalName, isNumericControl(r)]));
}

/** The lab's positions (its roles) that user tasks are handed to. */
export const positions = (orgId: number) =>
  lookup(() => getResult<{ id: number; name: string }[]>('/api/user/getRoleByOrgId', { orgId }));
