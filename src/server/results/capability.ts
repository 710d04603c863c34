import type { Capability } from '../kernel/capability.js';
import { resultEntry } from './entry.js';
import { orderedResults, resultsOfRejected } from './ordered.js';
import { specimenProgress } from './progress.js';
import { resultReview } from './review.js';
import { resultRoutes } from './routes.js';
import { resultDashboard } from './dashboard.js';

/**
 * Results (domain: "Inspection and results"): a pending result for every item a received specimen
 * ordered; the value entered by a tester with the authority, interpreted by the server (range, flags,
 * critical alert, delta, auto-verification); first review and audit by other accounts, signed with their
 * password, held while a critical value is unacknowledged or the item's QC is rejected; the specimen
 * moved through testing to reviewed as its results go; a specimen refused after receipt cancels its open results.
 */
export const results: Capability = {
  name: 'results',
  routes: resultRoutes,
  hooks: () => [resultEntry, resultReview, specimenProgress, orderedResults, resultsOfRejected],
  dashboard: resultDashboard,
};
