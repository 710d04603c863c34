import type { Capability } from '../kernel/capability.js';
import { workflowEngineRoutes } from './engine/routes.js';
import { seedDemoModels } from './models/demoModels.js';
import { processModelRoutes } from './models/routes.js';
import { specimenProcesses } from './engine/specimen.js';
import { workflowDashboard } from './engine/dashboard.js';

/** Process models, their designer's calls and deployment (spec 2.4, 7.5), and the engine that runs them. */
export const workflow: Capability = {
  name: 'workflow',
  async routes(app, kernel) {
    await processModelRoutes(app, kernel);
    await workflowEngineRoutes(app, kernel);
  },
  hooks: (kernel) => [specimenProcesses(kernel)],
  seed: { demo: (tx) => seedDemoModels(tx) },
  dashboard: () => workflowDashboard,
};
