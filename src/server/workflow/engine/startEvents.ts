import { getDate, ISOInterval } from '@0dep/piso';
import type { Queryable } from '../../kernel/db/database.js';
import type { ModdleElement } from './validate.js';

/**
 * Start events that wait before any instance exists: a timer start starts an instance when due, a
 * message start when its message is delivered. Each waits as a workflow_catch row of the deployment
 * (migration 21), armed when the model is deployed, so a restart finds it and the poller fires it; the
 * firing step locks the row, so one process alone starts the instance. A redeploy of the key replaces
 * the rows of the older deployments and deleting the model removes them.
 */
export interface StartCatch {
  elementId: string;
  kind: 'timer' | 'message';
  /** A timer's kind (timeDate, timeDuration, timeCycle), or the message's name. */
  name: string;
  /** A timer's ISO 8601 text, or the message's id in the model. */
  ref: string;
  due: Date | null;
}

export interface StartRow {
  deploymentId: string;
  orgId: number;
  elementId: string;
  kind: 'timer' | 'message';
  name: string;
  ref: string;
  dueAt: string | null;
  fired: number;
}

const ROW = `deployment_id as "deploymentId", org_id as "orgId", element_id as "elementId", kind, name, ref,
  due_at as "dueAt", fired`;

type TimerKind = 'timeDate' | 'timeDuration' | 'timeCycle';
type TimerDef = ModdleElement & Partial<Record<TimerKind, { body?: string }>>;

/** When a timer text first comes due, counted from `now` (as bpmn-elements counts an instance's timers). */
export function firstDue(kind: string, text: string, now: Date): Date {
  if (kind === 'timeDate') return getDate(text);
  return new ISOInterval(text).parse().getExpireAt(now, now);
}

/**
 * When a cycle fires next after firing at `due` (`fired` times so far), or null when it is spent: a
 * date or duration fires once; R3/PT1H three times; R/PT1H for ever. Times missed while no server ran
 * are not made up: the next is the first one after now.
 */
export function nextDue(kind: string, text: string, due: Date, fired: number, now: Date): Date | null {
  if (kind !== 'timeCycle') return null;
  const interval = new ISOInterval(text).parse();
  const repeat = interval.repeat ?? 1;
  if (repeat !== -1 && fired >= repeat) return null;
  const after = new Date(Math.max(now.getTime(), due.getTime()) + 1);
  const next = interval.getExpireAt(after, due);
  return next.getTime() > due.getTime() ? next : null;
}

/** The main process's start events with a timer or a message, as they wait once deployed. */
export function startCatchesOf(definitions: ModdleElement, key: string, now = new Date()): StartCatch[] {
  const process = (definitions.rootElements ?? []).find((p) => p.$type === 'bpmn:Process' && p.id === key);
  const found: StartCatch[] = [];
  for (const el of process?.flowElements ?? []) {
    if (el.$type !== 'bpmn:StartEvent') continue;
    const def = el.eventDefinitions?.[0];
    if (def?.$type === 'bpmn:TimerEventDefinition') {
      const timer = def as TimerDef;
      const kind = (['timeDate', 'timeDuration', 'timeCycle'] as const).find((k) => timer[k]?.body?.trim());
      if (!kind) continue;
      const text = timer[kind]!.body!.trim();
      found.push({ elementId: el.id!, kind: 'timer', name: kind, ref: text, due: firstDue(kind, text, now) });
    }
    if (def?.$type === 'bpmn:MessageEventDefinition') {
      const message = def.messageRef as { id?: string; name?: string } | undefined;
      if (!message?.id) continue;
      found.push({ elementId: el.id!, kind: 'message', name: message.name ?? message.id, ref: message.id, due: null });
    }
  }
  return found;
}

/** In the deploy's transaction: the key's older start rows go, this deployment's are armed. */
export async function armStartEvents(
  tx: Queryable,
  deployment: { id: string; orgId: number; key: string },
  catches: StartCatch[],
): Promise<void> {
  await tx.query(
    `delete from workflow_catch where instance_id is null
       and deployment_id in (select id from process_deployment where org_id = $1 and key = $2 and id <> $3)`,
    [deployment.orgId, deployment.key, deployment.id],
  );
  for (const c of catches)
    await tx.query(
      `insert into workflow_catch (instance_id, execution_id, deployment_id, org_id, element_id, kind, name, ref, due_at)
       values (null, $1, $2, $3, $1, $4, $5, $6, $7)`,
      [c.elementId, deployment.id, deployment.orgId, c.kind, c.name, c.ref, c.due?.toISOString() ?? null],
    );
}

/** A deleted model starts nothing any more. */
export const disarmModel = (tx: Queryable, modelId: string) =>
  tx.query(
    `delete from workflow_catch where instance_id is null
       and deployment_id in (select id from process_deployment where model_id = $1)`,
    [modelId],
  );

/** Timer starts due now, oldest first: the poller's page. */
export const dueStartTimers = (db: Queryable, limit: number) =>
  db.query<StartRow>(
    `select ${ROW} from workflow_catch where instance_id is null and kind = 'timer' and due_at <= now()
      order by due_at limit $1`,
    [limit],
  );

/**
 * The timer start again, locked without waiting: another process firing it holds the lock (and moves
 * or removes the row), so this one passes it over.
 */
export const lockDueStart = (tx: Queryable, row: StartRow) =>
  tx.query<StartRow>(
    `select ${ROW} from workflow_catch
      where instance_id is null and deployment_id = $1 and element_id = $2 and kind = 'timer' and due_at <= now()
      for update skip locked`,
    [row.deploymentId, row.elementId],
  );

/** After a firing: a cycle's next time, or the row removed when the timer is spent. */
export async function rearm(tx: Queryable, row: StartRow, now = new Date()): Promise<void> {
  const fired = row.fired + 1;
  const next = nextDue(row.name, row.ref, new Date(row.dueAt!), fired, now);
  if (next)
    await tx.query(
      `update workflow_catch set due_at = $3, fired = $4
        where instance_id is null and deployment_id = $1 and element_id = $2`,
      [row.deploymentId, row.elementId, next.toISOString(), fired],
    );
  else
    await tx.query('delete from workflow_catch where instance_id is null and deployment_id = $1 and element_id = $2', [
      row.deploymentId,
      row.elementId,
    ]);
}

/** Message starts of an organisation's deployed processes that a message of this name (or id) starts. */
export const messageStarts = (db: Queryable, orgId: number, name: string) =>
  db.query<StartRow>(
    `select ${ROW} from workflow_catch
      where instance_id is null and org_id = $1 and kind = 'message' and (name = $2 or ref = $2)
      order by created_at`,
    [orgId, name],
  );

/** What a deployment's start events wait on, for the model's detail. */
export const startsOf = (db: Queryable, deploymentId: string) =>
  db.query<StartRow>(`select ${ROW} from workflow_catch where instance_id is null and deployment_id = $1`, [
    deploymentId,
  ]);
