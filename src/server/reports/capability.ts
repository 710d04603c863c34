import type { Capability } from '../kernel/capability.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';
import { drawReportPdf, issueReport, REPORT_PDF } from './issue.js';
import { reportOnSignOut } from './pathologyReport.js';
import { reportRoutes } from './routes.js';

/** A specimen whose results are all audited (reviewed) is reported: its report issued in the same transaction. */
const reportOnReview: HookRegistration = {
  resource: 'specimen',
  order: 850,
  hooks: {
    async afterWrite({ tx, kernel, actor, locale, ip, transition }, row) {
      if (transition !== 'review') return;
      await issueReport(kernel, tx, { actor, locale, ip }, row);
    },
  },
};

/**
 * Patient reports (domain: "Inspection and results"): issued from the matching template when a
 * specimen's results are audited, kept as issued (PDF), viewed with every view logged, invalidated with
 * a reason and reissued as a corrected new version with the old one kept.
 */
export const reports: Capability = {
  name: 'reports',
  routes: reportRoutes,
  hooks: () => [reportOnReview, reportOnSignOut],
  fileDrawers: { [REPORT_PDF]: drawReportPdf },
};
