import type { Capability } from '../kernel/capability.js';
import { userSeed } from './demo.js';
import { userRoutes } from './routes.js';
import { ADMINISTRATOR_TABLE } from './screen.js';
import { USER_TABLE } from './userScreen.js';

/** Accounts of the labs and their administrators (spec 7.1; user and administrator maintenance screens). */
export const users: Capability = {
  name: 'users',
  routes: userRoutes,
  tables: [USER_TABLE, ADMINISTRATOR_TABLE],
  seed: userSeed,
};
