import type { Database, Queryable } from '../../kernel/db/database.js';
import { conflict, notFound } from '../../kernel/http/envelope.js';
import { appendLog } from '../../kernel/audit/log.js';
import type { Caller } from './service.js';
import * as store from './store.js';

/**
 * The workflow manager (spec 2.1 /activiti/manage): an organisation's deployments and process
 * instances, and what an admin may do to an instance: suspend it, resume it, delete it.
 */
export interface DeploymentRow {
  id: string;
  key: string;
  name: string;
  version: number;
  orgId: number;
  orgName: string | null;
  category: number | null;
  deployedAt: string;
  deployedBy: string | null;
  running: number;
  /** Its start events that wait for a timer (with when it fires next) or a message; none once a newer version is deployed. */
  starts: { elementId: string; kind: 'timer' | 'message'; name: string; dueAt: string | null; fired: number }[];
}

export function listDeployments(db: Queryable, orgId: number, key?: string): Promise<DeploymentRow[]> {
  return db.query<DeploymentRow>(
    `select d.id, d.key, d.name, d.version, d.org_id as "orgId", o.name as "orgName", m.category, d.deployed_at as "deployedAt",
            u.user_name as "deployedBy",
            (select count(*)::int from process_instance i where i.deployment_id = d.id and i.status in ('running', 'suspended')) as running,
            coalesce((select json_agg(json_build_object('elementId', c.element_id, 'kind', c.kind, 'name', c.name,
                                                        'dueAt', c.due_at, 'fired', c.fired) order by c.element_id)
                        from workflow_catch c where c.instance_id is null and c.deployment_id = d.id), '[]'::json) as starts
       from process_deployment d
       left join organization o on o.id = d.org_id
       left join process_model m on m.id = d.model_id
       left join app_user u on u.id = d.deployed_by
      where d.org_id = $1 and ($2::text is null or d.key = $2)
      order by d.key, d.version desc`,
    [orgId, key || null],
  );
}

export interface InstanceListRow {
  id: string;
  processKey: string;
  processName: string;
  version: number;
  businessKey: string | null;
  status: store.InstanceRow['status'];
  parentId: string | null;
  startedBy: string | null;
  startedAt: string;
  endedAt: string | null;
  currentTasks: string[];
}

export interface InstanceQuery {
  status?: string;
  processKey?: string;
  businessKey?: string;
  page: number;
  size: number;
}

export async function listInstances(
  db: Queryable,
  orgId: number,
  q: InstanceQuery,
): Promise<{ records: InstanceListRow[]; total: number }> {
  const where = `i.org_id = $1 and ($2::text is null or i.status = $2) and ($3::text is null or i.process_key = $3) and ($4::text is null or i.business_key like '%' || $4 || '%')`;
  const params = [orgId, q.status || null, q.processKey || null, q.businessKey || null];
  const records = await db.query<InstanceListRow>(
    `select i.id, i.process_key as "processKey", d.name as "processName", d.version, i.business_key as "businessKey", i.status, i.parent_id as "parentId",
            u.user_name as "startedBy", i.started_at as "startedAt", i.ended_at as "endedAt",
            coalesce((select array_agg(distinct coalesce(t.name, t.element_id)) from workflow_task t where t.instance_id = i.id and t.status = 'active'), '{}') as "currentTasks"
       from process_instance i join process_deployment d on d.id = i.deployment_id left join app_user u on u.id = i.started_by
      where ${where}
      order by i.started_at desc, i.id limit ${q.size} offset ${(q.page - 1) * q.size}`,
    params,
  );
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from process_instance i where ${where}`,
    params,
  );
  return { records, total: count?.n ?? 0 };
}

/** The caller's organisation's instance, locked: a completion under way finishes first. */
async function lockOwn(tx: Queryable, orgId: number, id: string): Promise<store.InstanceRow> {
  const instance = await store.lockInstance(tx, id);
  if (!instance || instance.orgId !== orgId) throw notFound();
  return instance;
}

/** Descendants by call activity, so a suspension holds the work the instance started too. */
const FAMILY = `with recursive family as (select id from process_instance where id = $1 union all select c.id from process_instance c join family f on c.parent_id = f.id) select id from family`;

/** A suspended instance keeps its tasks, but none of them can be completed until it is resumed. */
export async function setSuspended(db: Database, caller: Caller, id: string, suspend: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const instance = await lockOwn(tx, caller.orgId, id);
    const [from, to] = suspend ? ['running', 'suspended'] : ['suspended', 'running'];
    if (instance.status !== from)
      throw conflict(suspend ? 'workflow.instanceNotRunning' : 'workflow.instanceNotSuspended');
    await tx.query(`update process_instance set status = $2 where id in (${FAMILY}) and status = $3`, [id, to, from]);
    await appendLog(tx, caller, {
      resource: 'processInstance',
      recordId: id,
      action: suspend ? 'suspend' : 'resume',
      before: { status: from },
      after: { status: to },
    });
  });
}

/**
 * Ends where they stand the running or suspended instances of a business key (a specimen rejected or
 * cancelled), with the instances they called: their open tasks cancelled, their timers and message
 * waits dropped, each history closed with who ended it. In the transaction of the step that ended the
 * work, after any completion under way (the instances are locked). Answers how many ended.
 */
export async function terminateByBusinessKey(
  tx: Queryable,
  orgId: number,
  businessKey: string,
  userId: number,
): Promise<number> {
  const family = await tx.query<{ id: string; processKey: string }>(
    `with recursive family as (
       select id from process_instance where org_id = $1 and business_key = $2 and status in ('running', 'suspended')
       union all
       select c.id from process_instance c join family f on c.parent_id = f.id where c.status in ('running', 'suspended'))
     select i.id, i.process_key as "processKey" from process_instance i where i.id in (select id from family)
      order by i.id for update`,
    [orgId, businessKey],
  );
  if (family.length === 0) return 0;
  const ids = family.map((i) => i.id);
  await tx.query(
    `update workflow_task set status = 'cancelled', completed_at = now() where instance_id = any($1::text[]) and status = 'active'`,
    [ids],
  );
  await tx.query('delete from workflow_catch where instance_id = any($1::text[])', [ids]);
  await tx.query(`update process_instance set status = 'terminated', ended_at = now() where id = any($1::text[])`, [
    ids,
  ]);
  for (const instance of family)
    await store.addHistory(tx, {
      instanceId: instance.id,
      elementId: instance.processKey,
      elementType: 'Process',
      event: 'terminate',
      userId,
    });
  return family.length;
}

/** Removes an instance with its tasks, history and the instances it called (the foreign keys cascade). */
export async function deleteInstance(db: Database, caller: Caller, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const instance = await lockOwn(tx, caller.orgId, id);
    // The calling instance would wait for it for ever.
    if (instance.parentId) throw conflict('workflow.calledInstance');
    await tx.query('delete from process_instance where id = $1', [id]);
    await appendLog(tx, caller, {
      resource: 'processInstance',
      recordId: id,
      action: 'delete',
      before: {
        processKey: instance.processKey,
        businessKey: instance.businessKey,
        status: instance.status,
        variables: instance.variables,
      },
    });
  });
}
