import type { Capability } from '../kernel/capability.js';
import { oneTableInUse } from './guideline.js';
import { isolateRules } from './isolate.js';
import { microbiologyRoutes } from './routes.js';
import { susceptibilityReading } from './susceptibility.js';

/**
 * Microbiology (domain: "Microbiology"): isolates of a specimen with their panels, susceptibility read
 * S / I / SDD / R by the server on every save against the breakpoint table of the guideline and
 * version the lab has chosen (CLSI or EUCAST), each result keeping the version it was read with.
 */
export const microbiology: Capability = {
  name: 'microbiology',
  routes: microbiologyRoutes,
  hooks: () => [oneTableInUse, isolateRules, susceptibilityReading],
};
