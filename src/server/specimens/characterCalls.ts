import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../kernel/context.js';
import { publicDataCalls } from '../kernel/publicData/routes.js';

/** Spec 7.6: the specimen characters' public data, for a sub lab (import) and the main lab (synchronisation). */
export async function specimenCharacterRoutes(app: FastifyInstance, kernel: Kernel) {
  publicDataCalls(app, kernel, {
    resource: 'specimenCharacter',
    subImport: '/api/specimen/character/subLaboratoryImport',
    mainSync: '/api/specimen/character/dataSynchronization',
  });
}
