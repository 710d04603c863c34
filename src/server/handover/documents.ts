import type ExcelJS from 'exceljs';
import { newWorkbook } from '../kernel/excel.js';
import { t, type Locale } from '../../shared/i18n/messages.js';
import type { FieldDef, ScreenSchema } from '../../shared/screens/fields.js';
import { listColumns } from '../../shared/screens/fields.js';
import type { Queryable } from '../kernel/db/database.js';
import { cellValue } from '../kernel/resources/excel.js';
import type { RecordStore } from '../kernel/resources/store.js';
import { present, withLabels, type ApiRecord } from '../kernel/resources/records.js';
import type { PrintedPage } from './pdf.js';
import { linesOf, type Handover } from './store.js';
import type { SlipTemplate } from './template.js';

/** What the documents of some handovers are made from: the two screens (labels, options) and the caller's language. */
export interface DocumentContext {
  screen: ScreenSchema;
  lineScreen: ScreenSchema;
  locale: Locale;
  /** The laboratory's name, heading the printed slips. */
  labName: string;
}

/** Handovers and their lines as the lists show them (reference titles included). */
export interface HandoverSet {
  handovers: ApiRecord[];
  lines: ApiRecord[];
}

export async function loadSet(
  store: RecordStore,
  db: Queryable,
  doc: DocumentContext,
  orgId: number,
  records: Handover[],
): Promise<HandoverSet> {
  const handovers = await withLabels(db, doc.screen, orgId, records.map(present));
  const lines = await withLabels(
    db,
    doc.lineScreen,
    orgId,
    (
      await linesOf(
        store,
        db,
        orgId,
        records.map((r) => r.id),
      )
    ).map(present),
  );
  return { handovers, lines };
}

const field = (screen: ScreenSchema, key: string): FieldDef | undefined => screen.fields.find((f) => f.key === key);

/** A value as printed: what the list shows, as text. */
function shown(screen: ScreenSchema, record: ApiRecord, key: string, locale: Locale): string {
  const f = field(screen, key);
  const value = f ? cellValue(f, record, locale) : record[key];
  return value === null || value === undefined ? '' : String(value);
}

const label = (screen: ScreenSchema, key: string, locale: Locale) => field(screen, key)?.label[locale] ?? key;

const HEADER_KEYS = [
  'handoverNo',
  'status',
  'fromSite',
  'toGroup',
  'boxNo',
  'sealNo',
  'storage',
  'temperatureC',
  'handedBy',
  'handedAt',
  'receivedBy',
  'receivedAt',
];
/** How wide a column prints, relative to the others. */
const WEIGHTS: Record<string, number> = {
  barcode: 2,
  patientName: 1.3,
  specimenType: 1.3,
  itemNames: 3,
  checkResult: 1.1,
  checkedAt: 2.1,
  remark: 2.2,
};

/** The handover slip of each handover (spec 7.2 exportHandleRecordPdf, confirmReceive isPrint): header, specimens, signatures. */
export function slipPages(doc: DocumentContext, set: HandoverSet, template: SlipTemplate): PrintedPage[] {
  const { screen, lineScreen, locale } = doc;
  return set.handovers.map((h) => {
    const lines = set.lines.filter((l) => l.handover === h.id);
    const discrepancy = shown(screen, h, 'discrepancy', locale);
    return {
      title: `${doc.labName} ${template.title ?? t('handover.slip.title', locale)}`.trim(),
      header: HEADER_KEYS.map((key) => ({ label: label(screen, key, locale), value: shown(screen, h, key, locale) })),
      ...(discrepancy && { note: { label: label(screen, 'discrepancy', locale), value: discrepancy } }),
      table: {
        columns: template.columns.map((key) => ({
          label: label(lineScreen, key, locale),
          weight: WEIGHTS[key] ?? 1.5,
        })),
        rows: lines.map((l) => template.columns.map((key) => shown(lineScreen, l, key, locale))),
      },
      total: t('handover.slip.total', locale, { n: lines.filter((l) => l.checkResult !== 'extra').length }),
      ...(template.signatures && {
        signatures: [t('handover.slip.senderSign', locale), t('handover.slip.receiverSign', locale)] as [
          string,
          string,
        ],
      }),
      ...(template.footer && { footer: template.footer }),
    };
  });
}

const SUMMARY_KEYS = [
  'handoverNo',
  'fromSite',
  'toGroup',
  'specimenCount',
  'storage',
  'handedBy',
  'handedAt',
  'receivedBy',
  'receivedAt',
  'status',
];

/** One table of many handovers (spec 7.2 exportSummaryRecordPdf), for the period or the selection asked. */
export function summaryPage(doc: DocumentContext, set: HandoverSet): PrintedPage {
  const { screen, locale } = doc;
  const specimens = set.handovers.reduce((n, h) => n + (Number(h.specimenCount) || 0), 0);
  return {
    title: `${doc.labName} ${t('handover.slip.summaryTitle', locale)}`.trim(),
    header: [],
    table: {
      columns: SUMMARY_KEYS.map((key) => ({
        label: label(screen, key, locale),
        weight: key === 'handoverNo' || key.endsWith('At') ? 2 : 1.2,
      })),
      rows: set.handovers.map((h) => SUMMARY_KEYS.map((key) => shown(screen, h, key, locale))),
    },
    total: t('handover.slip.totalSlips', locale, { n: set.handovers.length, m: specimens }),
    signatures: [t('handover.slip.senderSign', locale), t('handover.slip.receiverSign', locale)],
  };
}

const LINE_KEYS = ['barcode', 'patientName', 'specimenType', 'itemNames', 'checkResult', 'checkedAt', 'remark'];

function addSheet(workbook: ExcelJS.Workbook, name: string, fields: FieldDef[], records: ApiRecord[], locale: Locale) {
  const sheet = workbook.addWorksheet(name.slice(0, 31));
  sheet.columns = fields.map((f) => ({
    header: f.label[locale],
    key: f.key,
    width: Math.max(12, (f.label[locale].length + 2) * 2),
  }));
  sheet.getRow(1).font = { bold: true };
  for (const record of records) sheet.addRow(fields.map((f) => cellValue(f, record, locale)));
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
}

/**
 * The handovers as a workbook (spec 7.2 getExcel, getExcelAll): a sheet of specimens, one row each,
 * headed by the handover number, in the slip template's columns when given; with `withHandovers`,
 * first a sheet of the handovers themselves.
 */
export async function handoverWorkbook(
  doc: DocumentContext,
  set: HandoverSet,
  options: { withHandovers: boolean; columns?: string[] },
): Promise<Buffer> {
  const { screen, lineScreen, locale } = doc;
  const workbook = await newWorkbook();
  workbook.creator = 'LIMS';
  if (options.withHandovers)
    addSheet(workbook, t('handover.sheet.handovers', locale), listColumns(screen), set.handovers, locale);
  const keys = ['handover', ...(options.columns ?? LINE_KEYS)];
  const lineFields = keys.map((k) => field(lineScreen, k)).filter((f): f is FieldDef => f !== undefined);
  addSheet(workbook, t('handover.sheet.specimens', locale), lineFields, set.lines, locale);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
