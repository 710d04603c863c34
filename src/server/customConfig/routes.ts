import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasRole } from '../../shared/access/can.js';
import type { Kernel } from '../kernel/context.js';
import { badRequest, forbidden, okMessage, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { appendLog } from '../kernel/audit/log.js';
import { CONFIG_KEY, type ConfigKind, type ConfigKinds } from '../kernel/labConfig/kinds.js';
import { getConfig, saveConfig } from '../kernel/labConfig/store.js';

interface ConfigInput {
  configKey?: unknown;
  configValue?: unknown;
}

/** The key asked for and the kind that owns it; a malformed or unknown key is refused. */
function keyOf(kinds: ConfigKinds, input: ConfigInput): { key: string; kind: ConfigKind } {
  const key = typeof input.configKey === 'string' ? input.configKey.trim() : '';
  if (!CONFIG_KEY.test(key)) throw badRequest('config.key.bad');
  const kind = kinds.of(key);
  if (!kind) throw badRequest('config.key.unknown', { key });
  return { key, kind };
}

/**
 * Per-lab custom configuration (spec 7.2): GET getCustomConfig answers the lab's value of a key (the
 * kind's defaults until the lab saves one); POST updateCustomConfig replaces it, administrators only,
 * checked by the kind, logged with before and after.
 */
export async function customConfigRoutes(app: FastifyInstance, ctx: Kernel) {
  const read = async (request: FastifyRequest, input: ConfigInput) => {
    const actor = actorOf(request);
    const { key, kind } = keyOf(ctx.configKinds, input);
    const stored = await getConfig(ctx.db, actor.orgId, key);
    const value = stored?.value ?? kind.defaults(key);
    if (!value) throw badRequest('config.key.unknown', { key });
    return ok({
      configKey: key,
      configValue: value,
      version: stored?.version ?? 0,
      updatedAt: stored?.updatedAt ?? null,
    });
  };
  app.get<{ Querystring: ConfigInput }>('/api/customConfig/getCustomConfig', (request) =>
    read(request, request.query ?? {}),
  );

  const update = async (request: FastifyRequest, input: ConfigInput) => {
    const actor = actorOf(request);
    if (!hasRole(actor, ['admin'])) throw forbidden();
    const { key, kind } = keyOf(ctx.configKinds, input);
    const checked = kind.check(input.configValue, request.locale);
    if ('problem' in checked) throw badRequest('config.value.bad', { detail: checked.problem });
    const saved = await ctx.db.transaction(async (tx) => {
      const before = await getConfig(tx, actor.orgId, key);
      const row = await saveConfig(tx, actor.orgId, key, checked.value, actor.id);
      await appendLog(tx, actor, {
        resource: 'customConfig',
        recordId: key,
        action: 'update',
        before: before?.value,
        after: row.value,
        ip: request.ip,
      });
      return row;
    });
    return okMessage(request, 'config.saved', {
      configKey: key,
      configValue: saved.value,
      version: saved.version,
      updatedAt: saved.updatedAt,
    });
  };
  app.post<{ Body: ConfigInput }>('/api/customConfig/updateCustomConfig', (request) =>
    update(request, request.body ?? {}),
  );
}
