import type { Capability } from '../kernel/capability.js';
import { roleSeed } from './demo.js';
import { ROLE_TABLES, roleRoutes } from './screen.js';

/** Roles of a laboratory and the menus each opens (spec 6; role and role-assign screens). */
export const roles: Capability = { name: 'roles', routes: roleRoutes, tables: ROLE_TABLES, seed: roleSeed };
