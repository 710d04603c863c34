import type { Locale } from '../../shared/i18n/messages.js';
import { fieldByKey, optionLabel } from '../../shared/screens/fields.js';
import { localDateTime } from '../../shared/time.js';
import { appendLog } from '../kernel/audit/log.js';
import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';
import type { Caller } from '../kernel/identity/actor.js';
import { getOrganization } from '../kernel/identity/organizations.js';
import { refuse } from '../kernel/resources/commands.js';
import type { ReportRecordRecord } from '../../shared/generated/resources.js';
import { reportPdf, type ReportContent } from './pdf.js';
import { susceptibilitySection } from './susceptibility.js';
import { reportLayout, type ReportLayout } from './layout.js';
import { labTimeZone } from '../kernel/labConfig/timeZone.js';

export const REPORT = 'reportRecord';
export const PDF = 'pdf';
/** The drawer of a report's PDF (kernel/files), from what storeReport keeps. */
export const REPORT_PDF = 'reportPdf';

interface ReportPdfInput {
  content: ReportContent;
  locale: Locale;
}

export const drawReportPdf = (input: unknown, issuedAt: Date) => {
  const { content, locale } = input as ReportPdfInput;
  return reportPdf(content, locale, issuedAt);
};

const TITLE: Record<Locale, string> = { 'zh-CN': '检验报告单', 'en-US': 'Laboratory report' };
const NOT_AUDITED: Record<Locale, string> = {
  'zh-CN': '标本 {barcode} 还有结果未审核，不能发布报告',
  'en-US': 'Specimen {barcode} has results not yet audited: no report can be issued',
};
const SEX: Record<string, 'M' | 'F' | 'U'> = { male: 'M', female: 'F', unknown: 'U' };

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const unique = (values: string[]) => [...new Set(values.filter((v) => v !== ''))];

/**
 * Issues the report of a specimen whose results are all audited: the record (numbered, or the same
 * number one version on when it corrects an invalidated one), its content as issued (its PDF drawn from
 * it once committed: kernel/files), the results published, the specimen reported. In the caller's
 * transaction: all of it, or nothing.
 */
export async function issueReport(
  kernel: Kernel,
  tx: Queryable,
  caller: Caller,
  specimen: { id: number; orgId: number; data: object },
  previous?: { data: object },
): Promise<number> {
  const { locale } = caller;
  const orgId = specimen.orgId;
  const s = specimen.data as Record<string, unknown>;
  const before = previous?.data as Record<string, unknown> | undefined;
  const results = await kernel.records.find(tx, 'inspectionResult', orgId, { barcode: [text(s.barcode)] });
  if (results.length === 0 || results.some((r) => !['audited', 'published'].includes(text(r.data.status))))
    refuse(locale, {
      'zh-CN': NOT_AUDITED['zh-CN'].replace('{barcode}', text(s.barcode)),
      'en-US': NOT_AUDITED['en-US'].replace('{barcode}', text(s.barcode)),
    });
  const title = async (
    resource: 'inspectionItem' | 'referralHospital' | 'specimenType' | 'professionalGroup' | 'inspectionPurpose',
    ids: unknown[],
  ) =>
    kernel.records.titles(
      tx,
      resource,
      orgId,
      ids.map(Number).filter((n) => n > 0),
    );
  const items = await title(
    'inspectionItem',
    results.map((r) => r.data.item),
  );
  const groups = await title(
    'professionalGroup',
    results.map((r) => r.data.professionalGroup),
  );
  const header = await specimenHeader(kernel, tx, orgId, s, locale);
  const hospital = header.record.hospitalName ?? '';
  const purposes = await title('inspectionPurpose', Array.isArray(s.purposes) ? s.purposes : []);
  const itemNames = results.map((r) => items.get(Number(r.data.item)) ?? '');
  const groupIds = [...groups.keys()];
  const layout = await reportLayout(kernel, tx, orgId, {
    hospital,
    items: itemNames,
    groups: groupIds,
    purposes: [...purposes.keys()],
  });
  const template = layout.template;
  const { now, reportNo, version } = await reportNumber(kernel, tx, orgId, before);
  const testers = unique(results.map((r) => text(r.data.tester)));
  const reviewers = unique(results.map((r) => text(r.data.reviewer)));
  const auditors = unique(results.map((r) => text(r.data.auditor)));
  const data: ReportRecordRecord = {
    reportNo,
    reportVersion: version,
    corrected: previous !== undefined,
    replaces: before ? `${reportNo} v${Number(before.reportVersion ?? 1)}` : null,
    ...header.record,
    itemNames: itemNames.join(','),
    professionalGroup: unique([...groups.values()]).join(','),
    inspectionPurpose: [...purposes.values()].join(','),
    reportedAt: now,
    reviewer: reviewers.join(','),
    auditor: auditors.join(','),
    template: template?.id ?? null,
    status: 'published',
    hasCritical: results.some((r) => r.data.critical === true),
  };
  const content: ReportContent = {
    ...(await reportHead(tx, orgId, layout, TITLE[locale])),
    reportNo,
    version,
    corrected: previous !== undefined,
    paperSize: (text(template?.data.paperSize) || 'A4') as ReportContent['paperSize'],
    landscape: template?.data.orientation === 'landscape',
    patient: header.patient,
    lines: results.map((r) => ({
      item: items.get(Number(r.data.item)) ?? '',
      result: text(r.data.result),
      flag: text(r.data.flag) === 'N' ? '' : text(r.data.flag),
      unit: text(r.data.unit),
      range: text(r.data.referenceRange),
    })),
    susceptibility: await susceptibilitySection(kernel, tx, orgId, text(s.barcode), locale),
    signers: { testers: testers.join('、'), reviewers: reviewers.join('、'), auditors: auditors.join('、') },
    reportedAt: now,
  };
  const id = await storeReport(kernel, tx, caller, data, content);
  const audited = results.filter((x) => x.data.status === 'audited').map((r) => r.id);
  if (audited.length > 0)
    await kernel.resources.transitionMany(caller, 'inspectionResult', audited, 'publish', {
      tx,
      system: true,
      details: { reportNo, version },
    });
  if (s.status === 'reviewed')
    await kernel.resources.transition(caller, 'specimen', specimen.id, 'report', {
      tx,
      system: true,
      details: { reportNo, version },
    });
  return id;
}

/** What a report prints of its specimen and patient, read from the specimen record. */
export async function specimenHeader(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  s: Record<string, unknown>,
  locale: Locale,
) {
  const title = async (resource: 'referralHospital' | 'specimenType', id: unknown) =>
    (await kernel.records.titles(tx, resource, orgId, Number(id) > 0 ? [Number(id)] : [])).get(Number(id)) ?? '';
  const hospital = await title('referralHospital', s.hospital);
  const specimenType = await title('specimenType', s.specimenType);
  const sexLabel = optionLabel(fieldByKey(kernel.screens.owner('specimen')!, 'sex'), s.sex, locale) ?? '';
  const age = typeof s.age === 'number' ? s.age : null;
  const record = {
    barcode: text(s.barcode),
    patientName: text(s.patientName),
    sex: SEX[text(s.sex)] ?? 'U',
    age,
    hospital: Number(s.hospital) > 0 ? Number(s.hospital) : null,
    hospitalName: hospital,
    department: text(s.department),
    specimenType,
    collectedAt: text(s.collectedAt) || null,
    receivedAt: text(s.receivedAt) || null,
  } satisfies Partial<ReportRecordRecord>;
  const patient: ReportContent['patient'] = {
    name: record.patientName,
    sexAge: `${sexLabel} ${age ?? ''}`.trim(),
    barcode: record.barcode,
    hospital,
    department: record.department,
    specimenType,
    collectedAt: text(s.collectedAt),
    receivedAt: text(s.receivedAt),
  };
  return { record, patient };
}

/** A new report's number (BG, the day, the day's next), or the number of the one it corrects, a version on. */
export async function reportNumber(kernel: Kernel, tx: Queryable, orgId: number, before?: Record<string, unknown>) {
  // The day of the number and the issue time are the lab's, whoever's audit issued the report.
  const now = localDateTime(kernel.now(), await labTimeZone(tx, orgId, kernel.config.timeZone));
  const reportNo = before
    ? text(before.reportNo)
    : await kernel.records.nextNumber(tx, REPORT, orgId, 'reportNo', `BG${now.slice(0, 10).replaceAll('-', '')}`);
  return { now, reportNo, version: before ? Number(before.reportVersion ?? 1) + 1 : 1 };
}

/** The top of a printed report: the lab, the title (the hospital's, the template's, else the default), logo and seal. */
export async function reportHead(tx: Queryable, orgId: number, layout: ReportLayout, title: string) {
  const org = await getOrganization(tx, orgId);
  return { lab: org?.name ?? '', title: layout.title ?? title, logo: layout.logo, seal: layout.seal };
}

/** A report as issued: its record, its PDF to draw, the log entry and the first event of its history. */
export async function storeReport(
  kernel: Kernel,
  tx: Queryable,
  caller: Caller,
  data: ReportRecordRecord,
  content: ReportContent,
): Promise<number> {
  const { actor, locale } = caller;
  const orgId = actor.orgId;
  const version = data.reportVersion;
  const row = await kernel.records.insert(tx, REPORT, orgId, data, actor.id);
  // The PDF is drawn once the signature is committed (kernel/files): from the content as issued now.
  const input: ReportPdfInput = { content, locale };
  await kernel.files.defer(tx, {
    resource: REPORT,
    orgId,
    recordId: row.id,
    kind: PDF,
    contentType: 'application/pdf',
    drawer: REPORT_PDF,
    input,
    by: actor.id,
  });
  await appendLog(tx, actor, { resource: REPORT, recordId: row.id, action: 'issue', after: data, ip: caller.ip });
  await kernel.events.append(tx, {
    resource: REPORT,
    orgId,
    recordId: row.id,
    kind: 'transition',
    name: 'create',
    toState: 'published',
    actor,
    at: kernel.now(),
    details: { version },
  });
  return row.id;
}
