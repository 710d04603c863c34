import type { Capability } from '../kernel/capability.js';
import { qcEvaluation } from './evaluation.js';
import { qcRoutes } from './routes.js';
import { qcDashboard } from './dashboard.js';

/**
 * Quality control (spec 2.2; domain notes): every QC result judged by the Westgard rules of its plan
 * as it is saved or edited, lots establishing their own target, rejections alerted, and the
 * Levey-Jennings points of the QC chart.
 */
export const qc: Capability = { name: 'qc', routes: qcRoutes, hooks: () => [qcEvaluation], dashboard: qcDashboard };
