import type { FastifyRequest } from 'fastify';
import type { Locale } from '../../../shared/i18n/messages.js';
import type { ScreenAction } from '../../../shared/screens/access.js';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import type { AuthUser } from '../identity/actor.js';
import type { Kernel } from '../context.js';
import type { Queryable } from '../db/database.js';
import { InvalidRecord } from '../http/envelope.js';
import { callerOf } from '../http/request.js';
import type { StoredRecord } from './repository.js';

/** A refusal of a command in the caller's language, shaped like a record the schema refuses. */
export function refuse(locale: Locale, message: Record<Locale, string>, field = ''): never {
  throw new InvalidRecord([{ field, key: 'field.rule', message: message[locale] }]);
}

/** A capability's message in the caller's language, its {names} filled in. */
export function say(
  message: Record<Locale, string>,
  locale: Locale,
  vars: Record<string, string | number> = {},
): string {
  return message[locale].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
}

/** Refuses the write (nothing is stored) with a capability's message, its {names} filled in. */
export function refused(
  message: Record<Locale, string>,
  locale: Locale,
  vars: Record<string, string | number> = {},
  field = '',
): never {
  const text = say(message, locale, vars);
  refuse(locale, { 'zh-CN': text, 'en-US': text }, field);
}

/** The screen of a resource when the caller's roles allow the action on it (a command needs update). */
export function screenOf(
  kernel: Kernel,
  request: FastifyRequest,
  resource: string,
  action: ScreenAction = 'update',
): { screen: ScreenSchema; actor: AuthUser } {
  const caller = callerOf(request);
  return { screen: kernel.resources.screenFor(caller, resource, action), actor: caller.actor };
}

/**
 * A named command of a screen on the record its route names (…/{id}/…): `decide` answers the fields
 * the command sets; the generic resource writes them as a new version, through the resource's rules,
 * logged under the command's name.
 */
export function runRecordCommand(
  kernel: Kernel,
  request: FastifyRequest<{ Params: { id: string } }>,
  resource: string,
  command: string,
  decide: (tx: Queryable, record: StoredRecord, actor: AuthUser) => Promise<RecordValues>,
): Promise<StoredRecord> {
  const caller = callerOf(request);
  const id = Number(request.params.id) || 0;
  return kernel.resources.command(caller, resource, id, command, (tx, record) => decide(tx, record, caller.actor));
}
