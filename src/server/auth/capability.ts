import type { Capability } from '../kernel/capability.js';
import { authRoutes } from './routes.js';

/** Sign-in, sign-out and the change of one's own password (spec 7.1, 2.5). */
export const auth: Capability = { name: 'auth', routes: authRoutes };
