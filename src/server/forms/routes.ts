import type { FastifyInstance, FastifyRequest } from 'fastify';
import { screenMessage } from '../../shared/screens/messages.js';
import type { AppContext } from '../kernel/context.js';
import { InvalidRecord } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { formDataRoutes } from './formData.js';
import { formInfoRoutes } from './formInfo.js';
import { inputHelperRoutes } from './inputHelper.js';
import { formImageRoutes } from './formImage.js';
import { acceptMultipart } from '../kernel/http/multipart.js';
import { MAX_FILE_BYTES } from '../../shared/files.js';
import { registerSpecCalls } from './specCalls.js';

/**
 * Workflow maintenance data of spec 7.6: form pages (and their pictures), their elements, tree data
 * sources and the input helper. The records live in the generic resource of their screens; this module gives them the
 * spec's call names and the rules that span records (a control key once per form page).
 */
export async function formRoutes(app: FastifyInstance, ctx: AppContext) {
  /** Two controls of one form page may not share a key: a jump condition would not know which one it tests. */
  async function elementKeyFree(request: FastifyRequest, record: Record<string, unknown>) {
    const actor = actorOf(request);
    const taken = await ctx.db.query<{ id: number }>(
      `select id from resource_record
        where resource = 'formElement' and org_id = $1 and data->>'formId' = $2 and data->>'logicalName' = $3 and id <> $4`,
      [actor.orgId, String(record.formId ?? ''), String(record.logicalName ?? ''), Number(record.id) || 0],
    );
    if (taken.length === 0) return;
    const label =
      ctx.screens.byResource('formElement')?.fields.find((f) => f.key === 'logicalName')?.label[request.locale] ??
      'logicalName';
    throw new InvalidRecord([
      {
        field: 'logicalName',
        key: 'field.unique',
        message: screenMessage('field.unique', request.locale, { label, value: String(record.logicalName) }),
      },
    ]);
  }

  registerSpecCalls(app, ctx, { noun: 'Form', resource: 'form', search: { param: 'formPageName', field: 'pageName' } });
  registerSpecCalls(app, ctx, {
    noun: 'Element',
    resource: 'formElement',
    search: { param: 'logicalName', field: 'logicalName' },
    check: elementKeyFree,
  });
  registerSpecCalls(app, ctx, {
    noun: 'TreeDataSource',
    resource: 'treeDataSource',
    search: { param: 'dataSourceName', field: 'dataSourceName' },
  });
  await formInfoRoutes(app, ctx);
  await formDataRoutes(app, ctx);
  await inputHelperRoutes(app, ctx);
  // Pictures come as a file of a multipart body too (spec 7.6 upsertDictImg): one picture and its fields.
  acceptMultipart(app, 2 * MAX_FILE_BYTES);
  await formImageRoutes(app, ctx);
}
