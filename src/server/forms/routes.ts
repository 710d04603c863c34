import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../kernel/context.js';
import { acceptMultipart } from '../kernel/http/multipart.js';
import { MAX_FILE_BYTES } from '../../shared/files.js';
import { formDataRoutes } from './formData.js';
import { formInfoRoutes } from './formInfo.js';
import { inputHelperRoutes } from './inputHelper.js';
import { formImageRoutes } from './formImage.js';
import { registerSpecCalls } from './specCalls.js';

/**
 * Workflow maintenance data of spec 7.6: form pages (and their pictures), their elements, tree data
 * sources and the input helper. The records live in the generic resource of their screens; this module
 * gives them the spec's call names.
 */
export async function formRoutes(app: FastifyInstance, ctx: Kernel) {
  registerSpecCalls(app, ctx, { noun: 'Form', resource: 'form', search: { param: 'formPageName', field: 'pageName' } });
  registerSpecCalls(app, ctx, {
    noun: 'Element',
    resource: 'formElement',
    search: { param: 'logicalName', field: 'logicalName' },
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
