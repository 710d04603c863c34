import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BASE_ORG_ID, manages } from '../../shared/access/can.js';
import { screenAllows } from '../../shared/screens/access.js';
import type { AppContext } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { badRequest, forbidden, notFound, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { getOrganization } from '../kernel/identity/organizations.js';

/**
 * What the workflow designer and the condition builder read of the forms (spec 3, 7.6): the form pages
 * of an organisation (id, pageName) for a user task's formKey, and the controls of one page (key →
 * label) for the variables of a jump condition.
 */
export interface FormInfo {
  id: number;
  pageName: string;
}

/** Form pages of an organisation, by name: enabled ones only, since a task cannot show a switched-off page. */
export function formInfos(db: Queryable, orgId: number): Promise<FormInfo[]> {
  return db.query<FormInfo>(
    `select id, data->>'pageName' as "pageName" from resource_record
      where resource = 'form' and org_id = $1 and coalesce((data->>'enabled')::boolean, true)
      order by data->>'pageName', id`,
    [orgId],
  );
}

/** The controls of a form page in their order, as a key → label map. */
export async function formColumns(db: Queryable, formId: number): Promise<Record<string, string>> {
  const rows = await db.query<{ key: string; label: string }>(
    `select data->>'logicalName' as key, data->>'label' as label from resource_record
      where resource = 'formElement' and (data->>'formId')::int = $1 and coalesce((data->>'enabled')::boolean, true)
      order by coalesce((data->>'sort')::int, 0), id`,
    [formId],
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.label]));
}

export async function formInfoRoutes(app: FastifyInstance, ctx: AppContext) {
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
    return ok(await formInfos(db, orgId));
  });

  /** Answers the map as JSON text, as the spec's callers parse it. */
  app.get<{ Querystring: { id?: string } }>('/api/form/findFormColsById', async (request) => {
    const id = Number(request.query.id);
    if (!Number.isInteger(id) || id <= 0) throw badRequest('common.invalid');
    const [form] = await db.query<{ orgId: number }>(
      `select org_id as "orgId" from resource_record where resource = 'form' and id = $1`,
      [id],
    );
    if (!form) throw notFound();
    await readableOrg(request, form.orgId);
    return ok(JSON.stringify(await formColumns(db, id)));
  });
}
