import type { FastifyRequest } from 'fastify';
import type { Locale } from '../../../shared/i18n/messages.js';
import { screenAllows, type ScreenAction } from '../../../shared/screens/access.js';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import type { AuthUser } from '../identity/actor.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import { conflict, forbidden, InvalidRecord, notFound } from '../http/envelope.js';
import { actorOf } from '../http/request.js';
import { appendLog } from '../audit/log.js';
import { getRecord, updateRecord, type StoredRecord } from './repository.js';

/** A refusal of a command in the caller's language, shaped like a record the schema refuses. */
export function refuse(locale: Locale, message: Record<Locale, string>, field = ''): never {
  throw new InvalidRecord([{ field, key: 'field.rule', message: message[locale] }]);
}

/** The screen of a resource when the caller's roles allow the action on it (a command needs update). */
export function screenOf(
  ctx: AppContext,
  request: FastifyRequest,
  resource: string,
  action: ScreenAction = 'update',
): { screen: ScreenSchema; actor: AuthUser } {
  const actor = actorOf(request);
  const screen = ctx.screens.byResource(resource);
  if (!screen) throw notFound();
  if (!screenAllows(screen, action, actor.roles)) throw forbidden();
  return { screen, actor };
}

/**
 * Runs a named command on one record of the caller's organisation inside a transaction: `decide`
 * answers the fields the command sets (the schema's read-only ones), the record is written with a new
 * version, and the change goes to the operation log with before and after, like any other write.
 */
export async function runRecordCommand(
  ctx: AppContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  resource: string,
  command: string,
  decide: (tx: Queryable, record: StoredRecord, actor: AuthUser) => Promise<Record<string, unknown>>,
): Promise<StoredRecord> {
  const { screen, actor } = screenOf(ctx, request, resource);
  return ctx.db.transaction(async (tx) => {
    const current = await getRecord(tx, screen, actor.orgId, Number(request.params.id) || 0);
    if (!current) throw notFound();
    const changes = await decide(tx, current, actor);
    const data = { ...current.data, ...changes };
    const row = await updateRecord(tx, screen, actor.orgId, current.id, current.version, data, actor.id);
    if (!row) throw conflict();
    await appendLog(tx, actor, {
      resource,
      recordId: row.id,
      action: command,
      before: current.data,
      after: row.data,
      ip: request.ip,
    });
    return row;
  });
}
