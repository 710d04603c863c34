import { BASE_ORG_ID } from '../../../shared/access/can.js';
import type { Queryable } from '../../kernel/db/database.js';
import type { AuthUser } from '../../kernel/identity/actor.js';
import { badRequest, forbidden, notFound } from '../../kernel/http/envelope.js';
import { getOrganization } from '../../kernel/identity/organizations.js';
import { appendLog } from '../../kernel/audit/log.js';
import { copyModel, flagCopies, getModel, modelsByIds, type ProcessModel } from './repository.js';

/**
 * Public models (spec 2.4, 4, 7.5). The main lab authors models and synchronises them up to the base
 * organisation (syncFlag 1); the base organisation distributes them to chosen labs; other labs import
 * the base models they pick; a lab confirms the newer version of a copy whose source changed (syncFlag 2).
 */
export const ids = (value: unknown): string[] =>
  (Array.isArray(value) ? value.map(String) : String(value ?? '').split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

const orgIdsOf = (value: unknown): number[] =>
  ids(value)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 0);

function own(models: ProcessModel[], orgId: number): ProcessModel[] {
  if (models.some((m) => m.orgId !== orgId)) throw forbidden();
  return models;
}

/** Main lab → base organisation: the base copy is refreshed, its labs learn of the newer version. */
export async function syncUp(tx: Queryable, actor: AuthUser, modelIds: string[], ip: string): Promise<number> {
  const models = own(await modelsByIds(tx, modelIds), actor.orgId);
  if (models.length === 0) throw badRequest('publicData.noRows');
  for (const model of models) {
    const copyId = await copyModel(tx, model, BASE_ORG_ID, actor.id);
    await tx.query('update process_model set sync_flag = 0, new_version = 0 where id = $1', [copyId]);
    await flagCopies(tx, (await getModel(tx, copyId))!);
    await tx.query('update process_model set sync_flag = 1 where id = $1', [model.id]);
  }
  await appendLog(tx, actor, {
    resource: 'processModel',
    recordId: null,
    action: 'sync',
    after: { ids: modelIds },
    ip,
  });
  return models.length;
}

/** A lab takes the newer version of its flagged copies. */
export async function confirmUpdates(tx: Queryable, actor: AuthUser, modelIds: string[], ip: string): Promise<number> {
  const copies = own(await modelsByIds(tx, modelIds), actor.orgId).filter(
    (m) => m.syncFlag === 2 && m.newVersion > 1 && m.sourceId,
  );
  if (copies.length === 0) throw badRequest('publicData.noRows');
  for (const copy of copies) {
    const source = await getModel(tx, copy.sourceId!);
    if (source) await copyModel(tx, source, actor.orgId, actor.id);
  }
  await appendLog(tx, actor, {
    resource: 'processModel',
    recordId: null,
    action: 'confirmUpdate',
    after: { ids: copies.map((c) => c.id) },
    ip,
  });
  return copies.length;
}

/** Base organisation → chosen labs (distribute), or base → the caller's lab (import). */
export async function issue(
  tx: Queryable,
  actor: AuthUser,
  modelIds: string[],
  orgIdsValue: unknown,
  ip: string,
): Promise<{ copied: number; distributed: boolean }> {
  const distributed = actor.orgId === BASE_ORG_ID;
  const targets = distributed ? orgIdsOf(orgIdsValue).filter((id) => id !== BASE_ORG_ID) : [actor.orgId];
  if (targets.length === 0) throw badRequest('publicData.noLab');
  const sources = await modelsByIds(tx, modelIds);
  if (sources.length === 0) throw badRequest('publicData.noRows');
  if (sources.some((m) => m.orgId !== BASE_ORG_ID)) throw forbidden();
  for (const orgId of targets) {
    const org = await getOrganization(tx, orgId);
    if (!org || org.labType === 'base') throw notFound();
    for (const source of sources) await copyModel(tx, source, orgId, actor.id);
  }
  await appendLog(tx, actor, {
    resource: 'processModel',
    recordId: null,
    action: distributed ? 'distribute' : 'import',
    after: { ids: modelIds, orgIds: targets },
    ip,
  });
  return { copied: sources.length * targets.length, distributed };
}
