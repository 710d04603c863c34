import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { badRequest, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { appendLog } from '../kernel/audit/log.js';
import { formPageFor } from './formData.js';
import { imageInput } from './images.js';

/**
 * The picture of a form page (spec 7.6 saveImage / getFormImage): a sketch, scan or photo saved with a
 * page, for one test item (testItemId) or for the page itself (no testItemId). One picture per page and
 * item: saving again replaces it. Whoever may fill the page in may save and read its picture.
 */
interface FormImage {
  id: string;
  formId: number;
  testItemId: string | null;
  image: string;
  updatedBy: string | null;
  updateTime: string;
}

/** The test item a picture belongs to ('' for the page itself); a test item id is a short code. */
function itemOf(value: unknown): string {
  const id = value === undefined || value === null ? '' : String(value).trim();
  if (id.length > 64) throw badRequest('common.invalid');
  return id;
}

/** What the log keeps of a picture: its type and size, not the picture itself. */
const summary = (image: string) => ({
  type: image.slice(5, image.indexOf(';')),
  bytes: Buffer.byteLength(image.slice(image.indexOf(',') + 1), 'base64'),
});

export async function formImageRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;

  const read = (q: Queryable, orgId: number, formId: number, testItemId: string) =>
    q.query<FormImage>(
      `select i.id, i.form_id as "formId", nullif(i.test_item_id, '') as "testItemId", i.image, u.user_name as "updatedBy", i.updated_at as "updateTime"
         from form_image i left join app_user u on u.id = i.updated_by
        where i.org_id = $1 and i.form_id = $2 and i.test_item_id = $3`,
      [orgId, formId, testItemId],
    );

  /** Body (JSON): { id | formId, testItemId?, image: data URL }; or multipart: id | formId, testItemId?, one file. */
  app.post('/api/form/saveImage', async (request) => {
    const actor = actorOf(request);
    const { image, values } = await imageInput(request);
    const page = await formPageFor(ctx, request, values.formId ?? values.id);
    const testItemId = itemOf(values.testItemId);
    const saved = await db.transaction(async (tx) => {
      const [before] = await tx.query<{ image: string }>(
        'select image from form_image where org_id = $1 and form_id = $2 and test_item_id = $3 for update',
        [actor.orgId, page.id, testItemId],
      );
      const [row] = await tx.query<{ id: string }>(
        `insert into form_image (org_id, form_id, test_item_id, image, created_by, updated_by) values ($1, $2, $3, $4, $5, $5)
         on conflict (org_id, form_id, test_item_id) do update set image = excluded.image, updated_by = excluded.updated_by, updated_at = now()
         returning id`,
        [actor.orgId, page.id, testItemId, image, actor.id],
      );
      await appendLog(tx, actor, {
        resource: 'formImage',
        recordId: row!.id,
        action: before ? 'update' : 'create',
        before: before && { formId: page.id, testItemId, ...summary(before.image) },
        after: { formId: page.id, testItemId, ...summary(image) },
        ip: request.ip,
      });
      return (await read(tx, actor.orgId, page.id, testItemId))[0];
    });
    return ok(saved);
  });

  /** Query: id | formId, testItemId?; answers the picture, or null when none was saved. */
  app.get<{ Querystring: { id?: string; formId?: string; testItemId?: string } }>(
    '/api/form/getFormImage',
    async (request) => {
      const q = request.query;
      const page = await formPageFor(ctx, request, q.formId ?? q.id);
      const [found] = await read(db, actorOf(request).orgId, page.id, itemOf(q.testItemId));
      return ok(found ?? null);
    },
  );
}
