import type { Capability } from '../kernel/capability.js';
import { formPagesOf } from './formPages.js';
import { formRoutes } from './routes.js';
import { elementKeyOncePerPage } from './rules.js';

/** Form pages, their elements, tree data sources and the input helper (spec 7.6); offers form pages to the workflow. */
export const forms: Capability = {
  name: 'forms',
  routes: formRoutes,
  hooks: () => [elementKeyOncePerPage],
  ports: (kernel) => ({ formPages: formPagesOf(kernel.records) }),
};
