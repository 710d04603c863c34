import type { Capability } from '../kernel/capability.js';
import { seedDemoDictionaries } from './demo.js';
import { seedSystemDictionaries } from './repository.js';
import { dictionaryRoutes } from './routes.js';
import { DICTIONARY_TABLES } from './screen.js';

/** System and business dictionaries (spec 7.4), business ones public data of the base organisation. */
export const dictionaries: Capability = {
  name: 'dictionaries',
  routes: dictionaryRoutes,
  tables: DICTIONARY_TABLES,
  seed: {
    always: (tx) => seedSystemDictionaries(tx),
    demo: async (tx) => {
      const orgs = await tx.query<{ id: number }>('select id from organization order by id');
      await seedDemoDictionaries(
        tx,
        orgs.map((o) => o.id),
      );
    },
  },
};
