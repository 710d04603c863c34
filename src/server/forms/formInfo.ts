import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BASE_ORG_ID, manages } from '../../shared/access/can.js';
import { screenAllows } from '../../shared/screens/access.js';
import type { Kernel } from '../kernel/context.js';
import { badRequest, forbidden, notFound, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { getOrganization } from '../kernel/identity/organizations.js';
import { formColumns, formInfos } from './formPages.js';

/**
 * What the workflow designer and the condition builder read of the forms (spec 3, 7.6): the form pages
 * of an organisation (id, pageName) for a user task's formKey, and the controls of one page (key →
 * label) for the variables of a jump condition.
 */
export interface FormInfo {
  id: number;
  pageName: string;
}

export async function formInfoRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;

  /** The caller may read an organisation's forms: their own, the base organisation's public ones, or a lab they manage. */
  async function readableOrg(request: FastifyRequest, orgId: number): Promise<void> {
    const actor = actorOf(request);
    const screen = ctx.screens.byResource('form');
    if (!screen || !screenAllows(screen, 'read', actor.roles)) throw forbidden();
    if (orgId === actor.orgId || orgId === BASE_ORG_ID) return;
    const org = await getOrganization(db, orgId);
    if (!org) throw notFound();
    if (!manages(actor, { orgId: org.id, parentOrgId: org.parentId })) throw forbidden();
  }

  app.get<{ Querystring: { orgId?: string } }>('/api/form/findAllFormInfos', async (request) => {
    const raw = request.query.orgId;
    const orgId = raw === undefined || raw === '' ? actorOf(request).orgId : Number(raw);
    if (!Number.isInteger(orgId) || orgId < 0) throw badRequest('common.invalid');
    await readableOrg(request, orgId);
    return ok(await formInfos(db, ctx.records, orgId));
  });

  /** Answers the map as JSON text, as the spec's callers parse it. */
  app.get<{ Querystring: { id?: string } }>('/api/form/findFormColsById', async (request) => {
    const id = Number(request.query.id);
    if (!Number.isInteger(id) || id <= 0) throw badRequest('common.invalid');
    const form = await ctx.records.locate(db, 'form', id);
    if (!form) throw notFound();
    await readableOrg(request, form.orgId);
    return ok(JSON.stringify(await formColumns(db, ctx.records, form)));
  });
}
