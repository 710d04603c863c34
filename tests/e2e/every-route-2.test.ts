import { adminWalk } from '../support/admin-walk';

/** Part 2 of the administrator's walk of every route (support/admin-walk.ts; part 1 is every-route.test.ts). */
adminWalk(2);
