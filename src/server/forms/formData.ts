import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type FormPage } from '../../shared/forms/formPage.js';
import { screenAllows } from '../../shared/screens/access.js';
import type { Kernel } from '../kernel/context.js';
import { badRequest, forbidden, notFound, ok } from '../kernel/http/envelope.js';
import { actorOf, intParam } from '../kernel/http/request.js';
import { appendLog } from '../kernel/audit/log.js';

/**
 * Form pages filled in (spec 7.6): a page with its elements and their choices (getFormInfo), data saved
 * for a page outside any task (insertFormData, insertFormDataList/{id}) and read back (findTbAllData).
 * The values are checked against the page exactly as a task form's are (shared/forms/formPage.ts).
 */
/** Only the page's own controls are kept, so a saved row never carries what the page does not show. */
const pageValues = (page: FormPage, values: Record<string, unknown>) =>
  Object.fromEntries(
    page.elements.filter((e) => values[e.key] !== undefined && values[e.key] !== '').map((e) => [e.key, values[e.key]]),
  );

interface SavedRow {
  id: string;
  formId: number;
  tableName: string | null;
  testItemId: string | null;
  data: Record<string, unknown>;
  createdBy: string | null;
  createFormTime: string;
}

/** Form pages are read (and filled in) by those who may read the form list screen, in their own organisation. */
export async function formPageFor(ctx: Kernel, request: FastifyRequest, formId: unknown): Promise<FormPage> {
  const actor = actorOf(request);
  const screen = ctx.screens.byResource('form');
  if (!screen || !screenAllows(screen, 'read', actor.roles)) throw forbidden();
  const page = await ctx.ports.formPages.load(ctx.db, actor.orgId, Number(formId));
  if (!page) throw notFound();
  return page;
}

export async function formDataRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;
  const pageFor = (request: FastifyRequest, formId: unknown) => formPageFor(ctx, request, formId);

  app.get<{ Querystring: { id?: string } }>('/api/form/getFormInfo', async (request) =>
    ok(await pageFor(request, request.query.id)),
  );

  async function insert(
    request: FastifyRequest,
    page: FormPage,
    rows: { testItemId: string | null; values: Record<string, unknown> }[],
  ) {
    const actor = actorOf(request);
    rows.forEach((row) => ctx.ports.formPages.check(page, row.values, request.locale));
    return db.transaction(async (tx) => {
      const saved: { id: string; createFormTime: string }[] = [];
      for (const row of rows) {
        const data = pageValues(page, row.values);
        const [created] = await tx.query<{ id: string; createFormTime: string }>(
          `insert into form_data (org_id, form_id, table_name, test_item_id, data, created_by) values ($1, $2, $3, $4, $5, $6)
           returning id, created_at as "createFormTime"`,
          [actor.orgId, page.id, page.tableName, row.testItemId, JSON.stringify(data), actor.id],
        );
        await appendLog(tx, actor, {
          resource: 'formData',
          recordId: created!.id,
          action: 'create',
          after: { formId: page.id, testItemId: row.testItemId, data },
        });
        saved.push(created!);
      }
      return saved;
    });
  }

  const textOrNull = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));

  /** One filled-in page: { formId, testItemId?, data: { control key: value } }. */
  app.post<{ Body: { formId?: unknown; id?: unknown; testItemId?: unknown; data?: unknown } | null }>(
    '/api/form/insertFormData',
    async (request) => {
      const body = request.body ?? {};
      if (!body.data || typeof body.data !== 'object' || Array.isArray(body.data)) throw badRequest('common.invalid');
      const page = await pageFor(request, body.formId ?? body.id);
      const [saved] = await insert(request, page, [
        { testItemId: textOrNull(body.testItemId), values: body.data as Record<string, unknown> },
      ]);
      return ok(saved);
    },
  );

  /** Several filled-in pages of form {id} at once, all or none: [{ testItemId?, data }] or [{ control key: value }]. */
  app.post<{ Params: { id: string }; Body: unknown }>('/api/form/insertFormDataList/:id', async (request) => {
    const list = Array.isArray(request.body) ? (request.body as unknown[]) : undefined;
    if (!list || list.length === 0 || list.length > 500 || list.some((x) => !x || typeof x !== 'object'))
      throw badRequest('common.invalid');
    const page = await pageFor(request, request.params.id);
    const rows = (list as Record<string, unknown>[]).map((item) =>
      item.data && typeof item.data === 'object'
        ? { testItemId: textOrNull(item.testItemId), values: item.data as Record<string, unknown> }
        : { testItemId: null, values: item },
    );
    return ok(await insert(request, page, rows));
  });

  /** What was saved for a page (by its tableName, or its formId), newest first; testItemId narrows it. */
  app.get<{ Querystring: { tableName?: string; formId?: string; testItemId?: string; page?: string; size?: string } }>(
    '/api/form/findTbAllData',
    async (request) => {
      const actor = actorOf(request);
      const q = request.query;
      if (!q.tableName && !q.formId) throw badRequest('common.invalid');
      if (q.formId) await pageFor(request, q.formId);
      else {
        const screen = ctx.screens.byResource('form');
        if (!screen || !screenAllows(screen, 'read', actor.roles)) throw forbidden();
      }
      const size = intParam(q.size, 50, 500);
      const offset = (intParam(q.page, 1) - 1) * size;
      const where = `d.org_id = $1 and ($2::text is null or d.table_name = $2) and ($3::int is null or d.form_id = $3) and ($4::text is null or d.test_item_id = $4)`;
      const params = [actor.orgId, q.tableName || null, q.formId ? Number(q.formId) : null, q.testItemId || null];
      const records = await db.query<SavedRow>(
        `select d.id, d.form_id as "formId", d.table_name as "tableName", d.test_item_id as "testItemId", d.data, u.user_name as "createdBy", d.created_at as "createFormTime"
         from form_data d left join app_user u on u.id = d.created_by where ${where} order by d.created_at desc, d.id desc limit ${size} offset ${offset}`,
        params,
      );
      const [count] = await db.query<{ n: string }>(`select count(*) as n from form_data d where ${where}`, params);
      return ok({ records, total: Number(count?.n ?? 0) });
    },
  );
}
