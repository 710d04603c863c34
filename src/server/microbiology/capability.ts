import type { Capability } from '../kernel/capability.js';
import { microbiologyRoutes } from './routes.js';

/** Microbiology (spec 2.2): susceptibility interpreted against versioned breakpoints. */
export const microbiology: Capability = { name: 'microbiology', routes: microbiologyRoutes };
