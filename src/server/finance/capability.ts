import type { Capability } from '../kernel/capability.js';
import { financeRoutes } from './routes.js';

/** Finance (spec 2.2 /financialProcessing): the two-step settlement audit. */
export const finance: Capability = { name: 'finance', routes: financeRoutes };
