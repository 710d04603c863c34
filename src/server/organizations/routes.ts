import type { FastifyInstance } from 'fastify';
import { can } from '../../shared/access/can.js';
import type { Kernel } from '../kernel/context.js';
import { forbidden, notFound, ok } from '../kernel/http/envelope.js';
import { actorOf, intParam } from '../kernel/http/request.js';
import {
  getOrganization,
  labTypeFlags,
  managedOrganizations,
  type OrganizationInput,
} from '../kernel/identity/organizations.js';
import { changeOrganization, createOrganization } from './service.js';

const organizationBody = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    code: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' },
    parentId: { type: 'integer', minimum: 0 },
    labType: { enum: ['main', 'sub', 'only'] },
    usePlace: { type: 'boolean' },
    definitionBarcodeRule: { type: 'integer', minimum: 1, maximum: 9 },
    address: { type: ['string', 'null'], maxLength: 200 },
    contact: { type: ['string', 'null'], maxLength: 50 },
    phone: { type: ['string', 'null'], maxLength: 20 },
    enabled: { type: 'boolean' },
  },
} as const;

/** Organisation calls of spec 7.3 plus the lab type of the page-entry flow. */
export async function organizationRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;

  app.get('/api/organization/getUserLabType', async (request) => {
    const org = await getOrganization(db, actorOf(request).orgId);
    if (!org) throw notFound();
    return ok(labTypeFlags(org));
  });

  app.get<{ Querystring: { name?: string; page?: string; size?: string } }>('/api/organization', async (request) => {
    const actor = actorOf(request);
    if (!can(actor, 'organization', 'read')) throw forbidden();
    const name = request.query.name?.trim().toLowerCase() ?? '';
    const all = (await managedOrganizations(db, actor.orgId)).filter((o) => o.name.toLowerCase().includes(name));
    const page = intParam(request.query.page, 1);
    const size = intParam(request.query.size, 50, 500);
    return ok({ records: all.slice((page - 1) * size, page * size), total: all.length });
  });

  app.get<{ Querystring: { orgId?: string } }>('/api/organization/all', async (request) => {
    const actor = actorOf(request);
    if (!can(actor, 'organization', 'read')) throw forbidden();
    const managed = await managedOrganizations(db, actor.orgId);
    const orgId =
      request.query.orgId === undefined || request.query.orgId === '' ? undefined : Number(request.query.orgId);
    const list = orgId === undefined ? managed : managed.filter((o) => o.id === orgId || o.parentId === orgId);
    return ok(list);
  });

  app.get('/api/organization/allSubLaboratory', async (request) => {
    const actor = actorOf(request);
    if (!can(actor, 'organization', 'read')) throw forbidden();
    const managed = await managedOrganizations(db, actor.orgId);
    return ok(managed.filter((o) => o.id !== actor.orgId && o.labType !== 'base'));
  });

  app.post<{ Body: OrganizationInput }>(
    '/api/organization',
    { schema: { body: { ...organizationBody, required: ['name', 'code', 'parentId', 'labType'] } } },
    async (request) => ok(await createOrganization(db, actorOf(request), request.body, request.ip)),
  );

  app.put<{ Body: Partial<OrganizationInput> & { id: number } }>(
    '/api/organization',
    { schema: { body: { ...organizationBody, required: ['id'] } } },
    async (request) => ok(await changeOrganization(db, actorOf(request), request.body.id, request.body, request.ip)),
  );
}
