import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../kernel/db/database.js';
import { one } from '../../kernel/db/database.js';
import { BASE_ORG_ID } from '../../../shared/access/can.js';
import { disarmModel } from '../engine/startEvents.js';

/**
 * Process model rows (spec 3): what the model list shows and the designer saves. syncFlag 0 own model,
 * 1 synced (or a synced copy), 2 changed since (the lab's copy has a newer version waiting: newVersion).
 */
export interface ProcessModel {
  id: string;
  modelId: string;
  orgId: number;
  key: string;
  name: string;
  category: number;
  descp: string | null;
  code: string | null;
  version: number;
  syncFlag: number;
  newVersion: number;
  deploymentId: string | null;
  sourceOrgId: number | null;
  sourceId: string | null;
  /** A diagram has been saved (the copy-flowchart action is offered only to models without one). */
  hasXml: boolean;
  lastUpdateTime: Date;
}

const COLUMNS = `id, id as "modelId", org_id as "orgId", key, name, category, descp, code, version,
  sync_flag as "syncFlag", new_version as "newVersion", deployment_id as "deploymentId",
  source_org_id as "sourceOrgId", source_id as "sourceId", bpmn_xml is not null as "hasXml",
  last_update_time as "lastUpdateTime"`;

/** Spec 2.4 server-side sort keys → columns; anything else sorts by last update, newest first. */
const SORTS: Record<string, string> = {
  modelId: 'id',
  id: 'id',
  key: 'key',
  syncFlag: 'sync_flag',
  category: 'category',
  lastUpdateTime: 'last_update_time',
  deploymentId: '(deployment_id is not null)',
  deployment: '(deployment_id is not null)',
};

export interface ListQuery {
  orgId: number;
  searchKeyWord?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

export function listModels(db: Queryable, q: ListQuery): Promise<ProcessModel[]> {
  const sorted = q.sort ? SORTS[q.sort] : undefined;
  const column = sorted ?? 'last_update_time';
  const direction = sorted ? (q.order === 'desc' ? 'desc' : 'asc') : 'desc';
  return db.query<ProcessModel>(
    `select ${COLUMNS} from process_model
      where org_id = $1 and ($2::text = '' or name ilike '%' || $2::text || '%')
      order by ${column} ${direction}, id`,
    [q.orgId, (q.searchKeyWord ?? '').trim()],
  );
}

export function getModel(db: Queryable, id: string): Promise<ProcessModel | undefined> {
  return one<ProcessModel>(db, `select ${COLUMNS} from process_model where id = $1`, [id]);
}

export function modelsByIds(db: Queryable, ids: string[]): Promise<ProcessModel[]> {
  return db.query<ProcessModel>(`select ${COLUMNS} from process_model where id = any($1::text[]) order by key`, [ids]);
}

export async function getXml(
  db: Queryable,
  id: string,
): Promise<{ bpmnXml: string | null; svgXml: string | null } | undefined> {
  return one(db, 'select bpmn_xml as "bpmnXml", svg_xml as "svgXml" from process_model where id = $1', [id]);
}

export interface NewModel {
  orgId: number;
  key: string;
  name: string;
  category: number;
  descp: string | null;
}

export async function insertModel(
  db: Queryable,
  input: NewModel,
  userId: number,
  id: string = randomUUID(),
): Promise<ProcessModel> {
  await db.query(
    `insert into process_model (id, org_id, key, name, category, descp, code, created_by, updated_by)
     values ($1, $2, $3, $4, $5, $6, $3, $7, $7)`,
    [id, input.orgId, input.key, input.name, input.category, input.descp, userId],
  );
  return (await getModel(db, id))!;
}

/**
 * Every saved diagram is the model's next version (a model never drawn stands at 1), so a lab copy of
 * an undrawn base model still hears when the base draws it. A synced model becomes "changed" (2) so its lab sends it
 * again; copies made from it learn that a newer version waits for them.
 */
export async function saveXml(
  db: Queryable,
  id: string,
  bpmnXml: string,
  svgXml: string | null,
  userId: number,
): Promise<ProcessModel> {
  await db.query(
    `update process_model set bpmn_xml = $2, svg_xml = $3, version = version + 1,
       sync_flag = case when sync_flag = 1 and source_id is null then 2 else sync_flag end,
       updated_by = $4, last_update_time = now()
     where id = $1`,
    [id, bpmnXml, svgXml, userId],
  );
  const saved = (await getModel(db, id))!;
  if (saved.orgId === BASE_ORG_ID) await flagCopies(db, saved);
  return saved;
}

/** Every lab copy of a base model hears that the source moved on (spec 2.4 "confirm updates"). */
export async function flagCopies(db: Queryable, source: ProcessModel): Promise<void> {
  await db.query(
    `update process_model set new_version = $2, sync_flag = 2
      where source_id = $1 and version < $2`,
    [source.id, source.version],
  );
}

export async function deleteModel(db: Queryable, id: string): Promise<void> {
  // Its deployments' timer and message start events start nothing any more.
  await disarmModel(db, id);
  await db.query('update process_model set source_id = null where source_id = $1', [id]);
  await db.query('delete from process_model where id = $1', [id]);
}

export async function setDeployment(db: Queryable, id: string, deploymentId: string): Promise<void> {
  await db.query('update process_model set deployment_id = $2, last_update_time = now() where id = $1', [
    id,
    deploymentId,
  ]);
}

/**
 * Puts a copy of the source model into a lab (distribute, import, sync, confirm): the copy with the same
 * source, else the lab's model with the same key, is refreshed; otherwise a new copy is made. The copy
 * remembers its source and stands at the source's version with nothing waiting.
 */
export async function copyModel(
  db: Queryable,
  source: ProcessModel,
  targetOrgId: number,
  userId: number | null,
): Promise<string> {
  const existing = await one<{ id: string }>(
    db,
    'select id from process_model where org_id = $1 and (source_id = $2 or key = $3) order by (source_id = $2) desc limit 1',
    [targetOrgId, source.id, source.key],
  );
  const xml = await getXml(db, source.id);
  const params = [
    source.name,
    source.category,
    source.descp,
    source.code,
    source.version,
    xml?.bpmnXml ?? null,
    xml?.svgXml ?? null,
    source.orgId,
    source.id,
    userId,
  ];
  if (existing) {
    await db.query(
      `update process_model set name = $2, category = $3, descp = $4, code = $5, version = $6, bpmn_xml = $7, svg_xml = $8,
         source_org_id = $9, source_id = $10, updated_by = $11, sync_flag = 1, new_version = 0, last_update_time = now()
       where id = $1`,
      [existing.id, ...params],
    );
    return existing.id;
  }
  const id = randomUUID();
  await db.query(
    `insert into process_model (id, org_id, key, name, category, descp, code, version, bpmn_xml, svg_xml,
       source_org_id, source_id, created_by, updated_by, sync_flag)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, 1)`,
    [id, targetOrgId, source.key, ...params],
  );
  return id;
}
