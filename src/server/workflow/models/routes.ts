import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BASE_ORG_ID, can, hasRole, type Action } from '../../../shared/access/can.js';
import { t } from '../../../shared/i18n/messages.js';
import type { Kernel } from '../../kernel/context.js';
import type { Queryable } from '../../kernel/db/database.js';
import { isUniqueViolation } from '../../kernel/db/errors.js';
import { ApiError, badRequest, forbidden, notFound, ok, okMessage } from '../../kernel/http/envelope.js';
import { actorOf, intParam } from '../../kernel/http/request.js';
import { getOrganization } from '../../kernel/identity/organizations.js';
import { appendLog } from '../../kernel/audit/log.js';
import { deployProcess } from '../engine/deployments.js';
import { taskSteps } from '../engine/specimen.js';
import { confirmUpdates, ids, issue, syncUp } from './publicModels.js';
import {
  deleteModel,
  getModel,
  getXml,
  insertModel,
  listModels,
  saveXml,
  setDeployment,
  type NewModel,
} from './repository.js';
import { checkBpmnXml, emptyDiagram } from './xml.js';
import { textIdParams } from '../../kernel/http/input.js';

/** The process-model calls of spec 7.5, with their paths, payloads and envelopes. */
const insertBody = {
  type: 'object',
  required: ['key', 'name'],
  properties: {
    // The key becomes the process id in the XML, so it must be an XML name.
    key: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$' },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    category: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
    descp: { type: ['string', 'null'], maxLength: 500 },
    orgId: { type: 'integer', minimum: 0 },
  },
} as const;

type Req = FastifyRequest;

/** The code-20000 envelope the sync and distribution calls answer with (spec 7.5). */
const done = (request: Req, key: Parameters<typeof t>[0], data: unknown) => ({
  code: 20000,
  message: t(key, request.locale),
  data,
});

export async function processModelRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;

  /** Org isolation through can(); the base organisation's models are readable by every lab (import). */
  async function allow(tx: Queryable, request: Req, action: Action, orgId: number) {
    const actor = actorOf(request);
    const org = await getOrganization(tx, orgId);
    if (!org) throw notFound();
    const publicRead = action === 'read' && orgId === BASE_ORG_ID && hasRole(actor, ['admin', 'editor']);
    if (!publicRead && !can(actor, 'processModel', action, { orgId, parentOrgId: org.parentId })) throw forbidden();
    return actor;
  }

  async function modelFor(request: Req, id: string | undefined, action: Action) {
    const model = id ? await getModel(db, id) : undefined;
    if (!model) throw notFound();
    const actor = await allow(db, request, action, model.orgId);
    return { actor, model };
  }

  /** The screen's orgId (0 on the basic route, spec 6) or the caller's own organisation. */
  const orgOf = (request: Req, value: unknown) =>
    value === undefined || value === null || value === '' ? actorOf(request).orgId : Number(value);

  app.post<{ Body: Partial<NewModel> & { key: string; name: string } }>(
    '/api/workflow/model/insert',
    { schema: { body: insertBody } },
    async (request) => {
      const orgId = orgOf(request, request.body.orgId);
      const actor = await allow(db, request, 'create', orgId);
      const input: NewModel = {
        orgId,
        key: request.body.key,
        name: request.body.name.trim(),
        category: request.body.category ?? 2,
        descp: request.body.descp ?? null,
      };
      try {
        const model = await db.transaction(async (tx) => {
          const created = await insertModel(tx, input, actor.id);
          await appendLog(tx, actor, {
            resource: 'processModel',
            recordId: created.id,
            action: 'create',
            after: created,
            ip: request.ip,
          });
          return created;
        });
        return okMessage(request, 'processModel.created', model);
      } catch (e) {
        if (isUniqueViolation(e)) throw badRequest('processModel.keyTaken');
        throw e;
      }
    },
  );

  app.get<{ Querystring: Record<string, string | undefined> }>('/api/workflow/model/list', async (request) => {
    const q = request.query;
    const orgId = orgOf(request, q.orgId);
    if (!Number.isInteger(orgId)) throw badRequest('common.invalid');
    await allow(db, request, 'read', orgId);
    // sort=field,desc (the generic screens' form) or sort=field&order=descending|desc.
    const [field, inline] = (q.sort ?? '').split(',');
    const order = /^desc/i.test(inline ?? q.order ?? '') ? 'desc' : 'asc';
    const rows = await listModels(db, { orgId, searchKeyWord: q.searchKeyWord, sort: field, order });
    if (!q.page && !q.size) return { ...ok(rows), total: rows.length };
    const page = intParam(q.page, 1);
    const size = intParam(q.size, 50, 500);
    return { ...ok(rows.slice((page - 1) * size, page * size)), total: rows.length };
  });

  app.get<{ Params: { id: string } }>(
    '/api/workflow/model/:id/xml',
    { schema: { params: textIdParams } },
    async (request) => {
      const { model } = await modelFor(request, request.params.id, 'read');
      const xml = await getXml(db, model.id);
      return ok({
        modelId: model.id,
        name: model.name,
        key: model.key,
        bpmnXml: xml?.bpmnXml ?? emptyDiagram(model.key, model.name),
        svgXml: xml?.svgXml ?? null,
      });
    },
  );

  app.post<{ Params: { id: string }; Body: { bpmn_xml?: string; svg_xml?: string } }>(
    '/api/workflow/model/:id/xml/save',
    { bodyLimit: 20 * 1024 * 1024, schema: { params: textIdParams } },
    async (request) => {
      const { actor, model } = await modelFor(request, request.params.id, 'update');
      const bpmnXml = String(request.body?.bpmn_xml ?? '');
      await checkBpmnXml(bpmnXml);
      const svg = request.body?.svg_xml ? String(request.body.svg_xml) : null;
      const saved = await db.transaction(async (tx) => {
        const row = await saveXml(tx, model.id, bpmnXml, svg, actor.id);
        await appendLog(tx, actor, {
          resource: 'processModel',
          recordId: model.id,
          action: 'saveXml',
          before: { version: model.version },
          after: { version: row.version },
          ip: request.ip,
        });
        return row;
      });
      return okMessage(request, 'processModel.saved', saved);
    },
  );

  app.get<{ Querystring: { modelId?: string } }>('/api/workflow/deleteModel', async (request) => {
    const { actor, model } = await modelFor(request, request.query.modelId, 'delete');
    await db.transaction(async (tx) => {
      await deleteModel(tx, model.id);
      await appendLog(tx, actor, {
        resource: 'processModel',
        recordId: model.id,
        action: 'delete',
        before: model,
        ip: request.ip,
      });
    });
    return okMessage(request, 'processModel.deleted', null);
  });

  app.get<{ Querystring: { modelId?: string } }>('/api/workflow/model/deploy', async (request) => {
    const { actor, model } = await modelFor(request, request.query.modelId, 'update');
    const xml = (await getXml(db, model.id))?.bpmnXml;
    if (!xml) throw badRequest('processModel.noDiagram');
    const { processIds } = await checkBpmnXml(xml);
    let deployed: { deploymentId: string; version: number };
    try {
      deployed = await deployProcess(
        db,
        {
          modelId: model.id,
          key: processIds[0]!,
          name: model.name,
          xml,
          orgId: model.orgId,
          deployedBy: actor.id,
          specimenSteps: taskSteps(ctx).map((step) => step.name),
        },
        request.locale,
      );
    } catch (e) {
      if (e instanceof ApiError) throw e;
      request.log.error(e);
      throw badRequest('processModel.deployFailed');
    }
    await db.transaction(async (tx) => {
      await setDeployment(tx, model.id, deployed.deploymentId);
      await appendLog(tx, actor, {
        resource: 'processModel',
        recordId: model.id,
        action: 'deploy',
        after: deployed,
        ip: request.ip,
      });
    });
    return okMessage(request, 'processModel.deployed', deployed);
  });

  /** Public data is an admin's job and never an only-lab's (spec 1, 6). */
  async function publicActor(request: Req) {
    const actor = actorOf(request);
    const org = await getOrganization(db, actor.orgId);
    if (!org || org.labType === 'only' || !hasRole(actor, ['admin'])) throw forbidden();
    return { actor, org };
  }

  type PublicBody = { ids?: unknown; syncFlag?: unknown; orgIds?: unknown };
  const payload = (request: FastifyRequest<{ Body: PublicBody; Querystring: PublicBody }>): PublicBody => ({
    ...request.query,
    ...(request.body ?? {}),
  });

  app.post<{ Body: PublicBody; Querystring: PublicBody }>('/api/workflow/syncModel', async (request) => {
    const { actor, org } = await publicActor(request);
    const body = payload(request);
    const flag = Number(body.syncFlag);
    if (flag === 1) {
      if (org.labType !== 'main') throw forbidden();
      const n = await db.transaction((tx) => syncUp(tx, actor, ids(body.ids), request.ip));
      return done(request, 'processModel.synced', { synced: n });
    }
    if (flag === 2) {
      const n = await db.transaction((tx) => confirmUpdates(tx, actor, ids(body.ids), request.ip));
      return done(request, 'processModel.confirmed', { confirmed: n });
    }
    throw badRequest('processModel.badSyncFlag');
  });

  app.post<{ Body: PublicBody; Querystring: PublicBody }>('/api/workflow/issueModel', async (request) => {
    const { actor } = await publicActor(request);
    const body = payload(request);
    const result = await db.transaction((tx) => issue(tx, actor, ids(body.ids), body.orgIds, request.ip));
    return done(request, result.distributed ? 'processModel.issued' : 'processModel.imported', {
      copied: result.copied,
    });
  });
}
