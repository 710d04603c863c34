import type { Locale } from '../../shared/i18n/messages.js';
import { pdfDocument } from '../kernel/print/document.js';
import { drawSusceptibility, type IsolateSection } from './susceptibility.js';
import { tableRow, type TableColumns } from './pdfTable.js';

/** One result line of a report: the item, its value and flag, unit and the range it was judged against. */
export interface ReportLine {
  item: string;
  result: string;
  flag: string;
  unit: string;
  range: string;
}

/** Everything a patient report prints; all of it read from the records, none typed for the report. */
export interface ReportContent {
  lab: string;
  title: string;
  reportNo: string;
  version: number;
  corrected: boolean;
  paperSize: 'A4' | 'A5' | 'B5';
  landscape: boolean;
  patient: Record<PatientKey, string>;
  lines: ReportLine[];
  /** A pathology report's text in its order (gross, microscopy, diagnosis, ICD-O); none on a laboratory report. */
  sections?: Partial<Record<SectionKey, string>>;
  /** The specimen's isolates and their susceptibility, when microbiology found any. */
  susceptibility?: IsolateSection[];
  signers: Partial<Record<SignerKey, string>>;
  reportedAt: string;
  /** The hospital's logo beside the title and its seal over the signatures (data URLs, as the screens keep images). */
  logo?: string;
  seal?: string;
  /** Pictures printed with a pathology report (the gross photo), where the hospital wants them. */
  images?: string[];
}

type PatientKey =
  'name' | 'sexAge' | 'barcode' | 'hospital' | 'department' | 'specimenType' | 'collectedAt' | 'receivedAt';
type SignerKey = 'testers' | 'reviewers' | 'auditors' | 'grossedBy' | 'diagnosedBy' | 'reviewedBy';
type SectionKey = 'gross' | 'microscopy' | 'diagnosis' | 'icdO' | 'amendReason';

const LABELS: Record<Locale, Record<PatientKey | SignerKey, string>> = {
  'zh-CN': {
    name: '姓名',
    sexAge: '性别/年龄',
    barcode: '条码号',
    hospital: '送检医院',
    department: '科室',
    specimenType: '标本类型',
    collectedAt: '采集时间',
    receivedAt: '接收时间',
    testers: '检验者',
    reviewers: '初审者',
    auditors: '审核者',
    grossedBy: '取材医生',
    diagnosedBy: '诊断医生',
    reviewedBy: '复核医生',
  },
  'en-US': {
    name: 'Patient',
    sexAge: 'Sex / age',
    barcode: 'Barcode',
    hospital: 'Hospital',
    department: 'Department',
    specimenType: 'Specimen type',
    collectedAt: 'Collected at',
    receivedAt: 'Received at',
    testers: 'Tested by',
    reviewers: 'First review',
    auditors: 'Audited by',
    grossedBy: 'Grossed by',
    diagnosedBy: 'Diagnosed by',
    reviewedBy: 'Reviewed by',
  },
};

const WORDS = {
  'zh-CN': {
    item: '检验项目',
    result: '结果',
    flag: '提示',
    unit: '单位',
    range: '参考范围',
    version: (n: number, corrected: boolean) => `第${n}版${corrected ? '（更正报告，替代此前版本）' : ''}`,
    reportedAt: '报告时间',
    gross: '大体所见',
    microscopy: '镜下所见',
    diagnosis: '病理诊断',
    icdO: 'ICD-O 编码',
    amendReason: '修正原因',
    footer: '本报告仅对所检标本负责。如有疑问，请在收到报告后七日内与实验室联系。',
  },
  'en-US': {
    item: 'Item',
    result: 'Result',
    flag: 'Flag',
    unit: 'Unit',
    range: 'Reference range',
    version: (n: number, corrected: boolean) =>
      `Version ${n}${corrected ? ' (corrected report, replaces earlier versions)' : ''}`,
    reportedAt: 'Reported at',
    gross: 'Gross description',
    microscopy: 'Microscopy',
    diagnosis: 'Diagnosis',
    icdO: 'ICD-O code',
    amendReason: 'Reason for amendment',
    footer: 'This report applies only to the specimen tested. Questions within seven days of receipt, please.',
  },
};

/** The arrow a reader looks for beside a flagged value. */
const ARROW: Record<string, string> = { H: '↑', L: '↓', HH: '↑↑', LL: '↓↓', A: '*' };

/**
 * The patient report as a PDF (pdfkit, the CJK font embedded): the lab's header, the template's title,
 * the patient and specimen, one line per result with its flag, unit and range (or a pathology report's
 * text), and who signed what when.
 */
export async function reportPdf(c: ReportContent, locale: Locale, issuedAt?: Date): Promise<Buffer> {
  const w = WORDS[locale];
  const { doc, bytes } = await pdfDocument({
    size: c.paperSize,
    layout: c.landscape ? 'landscape' : 'portrait',
    margin: 40,
  });
  doc.info.Title = `${c.title} ${c.reportNo}`;
  // The document's own date is the report's issue, not the moment its PDF was drawn (kernel/files).
  if (issuedAt) doc.info.CreationDate = issuedAt;
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  const logo = c.logo && pictureOf(c.logo);
  if (logo) doc.image(logo, left, doc.y, { fit: [48, 48] });
  doc.font('bold').fontSize(15).text(c.lab, left, doc.page.margins.top, { align: 'center', width });
  doc.fontSize(13).text(c.title, { align: 'center' });
  doc
    .font('regular')
    .fontSize(8)
    .text(`${c.reportNo}  ${w.version(c.version, c.corrected)}`, { align: 'right' });
  doc.moveDown(0.5);
  const half = width / 2;
  const patient = Object.entries(c.patient) as [PatientKey, string][];
  for (let i = 0; i < patient.length; i += 2) {
    const y = doc.y;
    patient
      .slice(i, i + 2)
      .forEach(([k, v], j) => doc.fontSize(9).text(`${LABELS[locale][k]}：${v}`, left + j * half, y, { width: half }));
    doc.x = left;
  }
  doc.moveDown(0.5);
  const columns: TableColumns<keyof ReportLine> = [
    ['item', 0.32],
    ['result', 0.16],
    ['flag', 0.1],
    ['unit', 0.14],
    ['range', 0.28],
  ];
  const row = (cells: Record<keyof ReportLine, string>, font: 'regular' | 'bold') =>
    tableRow(doc, columns, cells, font, { left, width });
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.moveDown(0.3);
  if (c.lines.length > 0) {
    row({ item: w.item, result: w.result, flag: w.flag, unit: w.unit, range: w.range }, 'bold');
    for (const line of c.lines)
      row({ ...line, flag: ARROW[line.flag] ? `${line.flag} ${ARROW[line.flag]}` : '' }, 'regular');
  }
  for (const [k, v] of Object.entries(c.sections ?? {}) as [SectionKey, string][]) {
    if (!v) continue;
    doc.font('bold').fontSize(10).text(w[k]);
    doc.font('regular').fontSize(9.5).text(v, { width });
    doc.moveDown(0.5);
  }
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  if (c.susceptibility) drawSusceptibility(doc, c.susceptibility, locale, left, width);
  doc.moveDown(0.8);
  for (const picture of (c.images ?? []).map(pictureOf).filter((p): p is Buffer => p !== undefined)) {
    doc.image(picture, left, doc.y, { fit: [width / 2, 160] });
    doc.moveDown(0.5);
  }
  const seal = c.seal && pictureOf(c.seal);
  if (seal) doc.image(seal, left + width - 110, doc.y, { fit: [90, 90] });
  for (const [k, v] of Object.entries(c.signers) as [SignerKey, string][])
    if (v) doc.font('regular').fontSize(9).text(`${LABELS[locale][k]}：${v}`);
  doc.text(`${w.reportedAt}：${c.reportedAt}`);
  doc.moveDown(1).fontSize(7.5).text(w.footer);
  doc.end();
  return bytes;
}

/** A stored picture as pdfkit draws it: PNG or JPEG data URLs; anything else is left off the report. */
function pictureOf(dataUrl: string): Buffer | undefined {
  const match = /^data:image\/(png|jpe?g);base64,(.+)$/.exec(dataUrl);
  return match ? Buffer.from(match[2]!, 'base64') : undefined;
}
