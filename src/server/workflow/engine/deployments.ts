import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../kernel/db/database.js';
import { one } from '../../kernel/db/database.js';
import { badRequest } from '../../kernel/http/envelope.js';
import { attr, modelProblems, readModel } from './validate.js';
import { dialectNotes, literalAssignees } from './dialects.js';
import type { Locale } from '../../../shared/i18n/messages.js';
import { elementLabel, tell } from './problemMessages.js';
import { armStartEvents, startCatchesOf } from './startEvents.js';

/**
 * Deploying a model: the diagram is checked (bpmnlint and our rules, validate.ts) and kept as an
 * immutable row of process_deployment. Versions count per organisation and key; instances keep the
 * deployment they started with, so a new version never changes running work.
 */
export interface DeployInput {
  modelId: string;
  key: string;
  name: string;
  xml: string;
  orgId: number;
  deployedBy: number;
  /** The specimen transitions a task may name (lims:specimenStep). */
  specimenSteps: readonly string[];
}

export async function deployProcess(
  db: Database,
  input: DeployInput,
  locale: Locale = 'zh-CN',
): Promise<{ deploymentId: string; version: number; warnings: string[] }> {
  const definitions = await readModel(input.xml);
  const problems = await modelProblems(definitions, input.key, input.specimenSteps, locale);
  if (problems.length > 0)
    throw badRequest('workflow.invalidModel', { detail: problems.join(locale === 'zh-CN' ? '；' : '; ') });
  const warnings = [
    ...dialectNotes(definitions, input.key, locale),
    ...(await missingAssignees(db, input.orgId, definitions, input.key, locale)),
  ];
  return db.transaction(async (tx) => {
    // Two deploys of one key at once would otherwise both read the same max(version).
    await tx.query('select pg_advisory_xact_lock(hashtext($1), $2)', [`process_deployment:${input.key}`, input.orgId]);
    const row = await one<{ next: number }>(
      tx,
      'select coalesce(max(version), 0) + 1 as next from process_deployment where org_id = $1 and key = $2',
      [input.orgId, input.key],
    );
    const deploymentId = randomUUID();
    const version = Number(row?.next ?? 1);
    await tx.query(
      'insert into process_deployment (id, model_id, key, name, version, xml, org_id, deployed_by) values ($1, $2, $3, $4, $5, $6, $7, $8)',
      [deploymentId, input.modelId, input.key, input.name, version, input.xml, input.orgId, input.deployedBy],
    );
    // Timer and message start events wait from now on; the older version's stop waiting.
    await armStartEvents(
      tx,
      { id: deploymentId, orgId: input.orgId, key: input.key },
      startCatchesOf(definitions, input.key),
    );
    return { deploymentId, version, warnings };
  });
}

/**
 * A task given to an account the organisation does not have would wait for no one: deployed, but
 * named in a warning; its tasks can be reassigned (task administration).
 */
async function missingAssignees(
  db: Queryable,
  orgId: number,
  definitions: Parameters<typeof dialectNotes>[0],
  key: string,
  locale: Locale,
) {
  const named = literalAssignees(definitions, key, (el) => attr(el, 'assignee'));
  if (named.length === 0) return [];
  const known = new Set(
    (
      await db.query<{ account: string }>(
        'select user_account as account from app_user where org_id = $1 and user_account = any($2::text[])',
        [orgId, named.map((n) => n.assignee)],
      )
    ).map((r) => r.account),
  );
  return named
    .filter((n) => !known.has(n.assignee))
    .map((n) => `${elementLabel(n, locale)}: ${tell('missingAssignee', locale, { account: n.assignee })}`);
}

/** A deployment as instances refer to it; its XML is read only when a model is prepared or traced. */
export interface DeploymentInfo {
  id: string;
  key: string;
  name: string;
  version: number;
  orgId: number;
}

export interface Deployment extends DeploymentInfo {
  xml: string;
}

const INFO = 'id, key, name, version, org_id as "orgId"';

export async function getDeployment(db: Queryable, id: string): Promise<Deployment | undefined> {
  return one<Deployment>(db, `select ${INFO}, xml from process_deployment where id = $1`, [id]);
}

export async function deploymentInfo(db: Queryable, id: string): Promise<DeploymentInfo | undefined> {
  return one<DeploymentInfo>(db, `select ${INFO} from process_deployment where id = $1`, [id]);
}

/** The newest deployment of a process key in an organisation (start by key, call activities). */
export async function latestDeployment(db: Queryable, orgId: number, key: string): Promise<DeploymentInfo | undefined> {
  return one<DeploymentInfo>(
    db,
    `select ${INFO} from process_deployment where org_id = $1 and key = $2 order by version desc limit 1`,
    [orgId, key],
  );
}
