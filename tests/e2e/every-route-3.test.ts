import { adminWalk } from '../support/admin-walk';

/** Part 3 of the administrator's walk of every route (support/admin-walk.ts; part 1 is every-route.test.ts). */
adminWalk(3);
