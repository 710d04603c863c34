import type { Capability } from '../kernel/capability.js';
import { specimenCharges, specimenDeleted } from './charges.js';
import { recalculationRequest } from './recalculation.js';
import { financeRoutes } from './routes.js';
import { auditAmount, statementFromLines, writeOffLimits } from './statements.js';
import { waiverCharges } from './waivers.js';

/**
 * Finance (spec 2.2 /financialProcessing; domain "Finance"): billing from what was ordered. A
 * specimen's charge lines are written when it is registered (priced by its hospital's price list,
 * discounts and waivers) and reversed when its orders change or it is cancelled or rejected; price
 * recalculation, statements, write-offs and the two-step settlement audit all work on those lines.
 */
export const finance: Capability = {
  name: 'finance',
  routes: financeRoutes,
  hooks: () => [
    specimenCharges,
    specimenDeleted,
    waiverCharges,
    recalculationRequest,
    statementFromLines,
    writeOffLimits,
    auditAmount,
  ],
};
