import type { Capability } from '../kernel/capability.js';
import { handoverRoutes } from './routes.js';
import { handoverRules } from './rules.js';
import { slipConfigKind } from './template.js';

/** Handover between sites and groups (spec 7.2; domain notes "Handover"): custody, receipt, slips. */
export const handover: Capability = {
  name: 'handover',
  routes: handoverRoutes,
  hooks: () => [handoverRules],
  configKinds: [slipConfigKind],
};
