import type { Capability } from '../kernel/capability.js';
import { MENU_TABLE } from './screen.js';
import { seedMenus } from './seed.js';
import { iconSpriteRoutes } from './iconSprite.js';
import { userMenuRoutes } from './userMenu.js';

/** The route tree (spec 2.2): kept in the database from menus.json, maintained, and filtered per user (spec 6). */
export const menus: Capability = {
  name: 'menus',
  async routes(app, kernel) {
    await userMenuRoutes(app, kernel);
    iconSpriteRoutes(app);
  },
  tables: [MENU_TABLE],
  seed: { always: (tx, { menus: routes }) => seedMenus(tx, routes) },
};
