import type { Capability } from '../kernel/capability.js';
import { qcRoutes } from './routes.js';

/** Quality control (spec 2.2; domain notes): Westgard evaluation of QC results. */
export const qc: Capability = { name: 'qc', routes: qcRoutes };
