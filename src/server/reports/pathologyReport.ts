import type { Locale } from '../../shared/i18n/messages.js';
import type { PathologyDiagnosisRecord, ReportRecordRecord } from '../../shared/generated/resources.js';
import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';
import type { Caller } from '../kernel/identity/actor.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';
import type { StoredRecord } from '../kernel/resources/repository.js';
import type { ReportContent } from './pdf.js';
import { REPORT, reportHead, reportNumber, specimenHeader, storeReport } from './issue.js';
import { reportLayout } from './layout.js';

const TITLE: Record<Locale, string> = { 'zh-CN': '病理诊断报告', 'en-US': 'Pathology report' };
const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const signed = (name: unknown, at: unknown) => `${text(name)} ${text(at).slice(0, 16)}`.trim();

/** The report a case signed out before, still standing: an amendment's report corrects it. */
async function standingReport(kernel: Kernel, tx: Queryable, orgId: number, pathologyNo: string) {
  const reports = await kernel.records.find(tx, REPORT, orgId, { pathologyNo: [pathologyNo] });
  return reports.find((r) => ['published', 'printed'].includes(text(r.data.status)) && !r.data.replacedBy);
}

/**
 * Issues the pathology report of a case its reviewer has just signed out: the patient and specimen, the
 * gross description, microscopy and diagnosis, who grossed, diagnosed and reviewed it and when. After an
 * amendment the standing report is invalidated with the amendment's reason and the new one is its
 * corrected next version. The specimen is reported.
 */
export async function issuePathologyReport(kernel: Kernel, tx: Queryable, caller: Caller, diagnosis: StoredRecord) {
  const { actor, locale } = caller;
  const orgId = diagnosis.orgId;
  const d = diagnosis.data as unknown as PathologyDiagnosisRecord;
  const c = await kernel.records.get(tx, 'pathologySampling', orgId, d.case);
  if (!c) return;
  const pathologyNo = text(c.data.pathologyNo);
  const [specimen] = await kernel.records.find(tx, 'specimen', orgId, { barcode: [text(c.data.barcode)] });
  const header = await specimenHeader(kernel, tx, orgId, { ...specimen?.data }, locale);
  const previous = await standingReport(kernel, tx, orgId, pathologyNo);
  const { now, reportNo, version } = await reportNumber(kernel, tx, orgId, previous && { ...previous.data });
  const replaces = previous ? `${reportNo} v${Number(previous.data.reportVersion ?? 1)}` : null;
  if (previous) {
    const reason = { invalidReason: text(d.amendReason) };
    await kernel.resources.transition(caller, REPORT, previous.id, 'invalidate', { tx, system: true, input: reason });
    const invalidated = (await kernel.records.get(tx, REPORT, orgId, previous.id))!;
    const replacedBy = `${reportNo} v${version}`;
    await kernel.records.update(tx, REPORT, invalidated, { ...invalidated.data, replacedBy }, actor.id);
  }
  const layout = await reportLayout(kernel, tx, orgId, {
    hospital: text(header.record.hospitalName),
    items: [],
    groups: [],
    purposes: Array.isArray(specimen?.data.purposes) ? specimen.data.purposes.map(Number) : [],
  });
  const data: ReportRecordRecord = {
    reportNo,
    reportVersion: version,
    corrected: previous !== undefined,
    replaces,
    ...header.record,
    pathologyNo,
    itemNames: TITLE[locale],
    reportedAt: now,
    reviewer: text(d.diagnosedBy),
    auditor: text(d.reviewedBy),
    status: 'published',
    template: layout.template?.id ?? null,
  };
  const content: ReportContent = {
    ...(await reportHead(tx, orgId, layout, TITLE[locale])),
    images: layout.showImages && c.data.photo ? [text(c.data.photo)] : [],
    reportNo: `${reportNo}  ${pathologyNo}`,
    version,
    corrected: previous !== undefined,
    paperSize: (text(layout.template?.data.paperSize) || 'A4') as ReportContent['paperSize'],
    landscape: layout.template?.data.orientation === 'landscape',
    patient: header.patient,
    lines: [],
    sections: {
      gross: text(c.data.grossDescription),
      microscopy: text(d.microscopy),
      diagnosis: text(d.diagnosis),
      icdO: text(d.icdO),
      amendReason: previous ? text(d.amendReason) : '',
    },
    signers: {
      grossedBy: signed(c.data.sampledBy, c.data.sampledAt),
      diagnosedBy: signed(d.diagnosedBy, d.diagnosedAt),
      reviewedBy: signed(d.reviewedBy, d.signedOutAt),
    },
    reportedAt: now,
  };
  await storeReport(kernel, tx, caller, data, content);
  if (specimen && ['inTesting', 'reviewed'].includes(text(specimen.data.status)))
    await kernel.resources.transition(caller, 'specimen', specimen.id, 'report', {
      tx,
      system: true,
      details: { reportNo, version, pathologyNo },
    });
}

/** A case's diagnosis reviewed and signed out is reported, in the same transaction. */
export const reportOnSignOut: HookRegistration = {
  resource: 'pathologyDiagnosis',
  order: 850,
  hooks: {
    async afterWrite({ tx, kernel, actor, locale, ip, transition }, row) {
      if (transition !== 'review') return;
      await issuePathologyReport(kernel, tx, { actor, locale, ip }, row);
    },
  },
};
