import { http, getResult, type Result } from '../api/http';
import type { ScreenSchema } from '../../shared/screens/fields';
import type { RecordValues } from '../../shared/screens/predicate';

/**
 * The one contract every screen talks to the server through (react-admin's data provider): list,
 * one, create, update, delete, delete many, export and import of a schema resource.
 */
export type ScreenRecord = RecordValues & { id: number; version: number; labels?: Record<string, string | string[]> };

import type { ShownEvent } from '../../shared/lifecycle/events';

export interface ListParams {
  page: number;
  size: number;
  sort?: { field: string; order: 'asc' | 'desc' };
  filters: Record<string, unknown>;
  /** A public-platform route (spec 6 basic flag): the base organisation's rows are read. */
  basic?: boolean;
}

/** The list query as the server reads it: page, size, sort, and each filter (a range as keyFrom / keyTo). */
export function queryOf(params: ListParams): Record<string, string> {
  const query: Record<string, string> = { page: String(params.page), size: String(params.size) };
  if (params.sort) query.sort = `${params.sort.field},${params.sort.order}`;
  if (params.basic) query.basic = '1';
  for (const [key, value] of Object.entries(params.filters)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value[0]) query[`${key}From`] = String(value[0]);
      if (value[1]) query[`${key}To`] = String(value[1]);
    } else query[key] = String(value);
  }
  return query;
}

const base = (screen: ScreenSchema) => `/api/resources/${screen.resource.name}`;
/** The call of one record: the schema's own endpoint ({id} filled in) when it names one, else the generic one. */
const one = (screen: ScreenSchema, endpoint: string | undefined, id: number) =>
  endpoint ? endpoint.replace(/\{id\}/g, encodeURIComponent(String(id))) : `${base(screen)}/${id}`;

export const dataProvider = {
  getScreen: (id: string) => getResult<ScreenSchema>(`/api/ui/screens/${encodeURIComponent(id)}`),
  getList: (screen: ScreenSchema, params: ListParams) =>
    getResult<{ records: ScreenRecord[]; total: number; more?: boolean }>(
      screen.endpoints?.list ?? base(screen),
      queryOf(params),
    ),
  getOne: (screen: ScreenSchema, id: number) => getResult<ScreenRecord>(one(screen, screen.endpoints?.get, id)),
  /** A record's history (its lifecycle's steps and the capabilities' steps on it), oldest first. */
  getEvents: (screen: ScreenSchema, id: number) => getResult<ShownEvent[]>(`${base(screen)}/${id}/events`),
  async create(screen: ScreenSchema, data: RecordValues) {
    const { data: body } = await http.post<Result<ScreenRecord>>(screen.endpoints?.create ?? base(screen), data);
    return body.resultObject;
  },
  async update(screen: ScreenSchema, id: number, data: RecordValues) {
    const { data: body } = await http.put<Result<ScreenRecord>>(one(screen, screen.endpoints?.update, id), data);
    return body.resultObject;
  },
  async deleteMany(screen: ScreenSchema, ids: number[]) {
    if (ids.length === 1) await http.delete(one(screen, screen.endpoints?.delete, ids[0]!));
    else if (screen.endpoints?.delete)
      for (const id of ids) await http.delete(one(screen, screen.endpoints.delete, id));
    else await http.post(`${base(screen)}/batchDelete`, { ids });
  },
  async exportFile(screen: ScreenSchema, params: ListParams): Promise<Blob> {
    const { data } = await http.get<Blob>(`${base(screen)}/export.xlsx`, {
      params: queryOf(params),
      responseType: 'blob',
    });
    return data;
  },
  /** The sheet goes to the resource's own import, or to the call the import action names (told the file's name). */
  async importFile(screen: ScreenSchema, file: File, endpoint?: string): Promise<number> {
    const { data } = await http.post<Result<{ imported: number }>>(endpoint ?? `${base(screen)}/import`, file, {
      headers: { 'Content-Type': 'application/octet-stream' },
      ...(endpoint && { params: { fileName: file.name } }),
    });
    return data.resultObject.imported;
  },
  /** Options of a reference field: records of the referenced resource, by title. */
  async options(resource: string, labelField: string, search: string) {
    const page = await getResult<{ records: ScreenRecord[] }>(`/api/resources/${resource}`, {
      page: 1,
      size: 50,
      ...(search ? { [labelField]: search } : {}),
    });
    return page.records.map((r) => ({ value: r.id, label: String(r[labelField] ?? r.id) }));
  },
};
