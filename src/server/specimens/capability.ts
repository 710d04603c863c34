import type { Capability } from '../kernel/capability.js';
import { specimenCharacterRoutes } from './characterCalls.js';

/** Specimens (spec 2.2 sample pre-processing): the specimen characters' public-data calls of spec 7.6. */
export const specimens: Capability = { name: 'specimens', routes: specimenCharacterRoutes };
