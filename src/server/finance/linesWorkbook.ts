import type ExcelJS from 'exceljs';
import { newWorkbook } from '../kernel/excel.js';
import type { Locale } from '../../shared/i18n/messages.js';
import { localDateTime } from '../../shared/time.js';
import type { ChargeLine } from './ledger.js';

type Label = Record<Locale, string>;

const KIND: Record<string, Label> = {
  charge: { 'zh-CN': '收费', 'en-US': 'Charge' },
  reversal: { 'zh-CN': '冲销', 'en-US': 'Reversal' },
};
const REASON: Record<string, Label> = {
  ordered: { 'zh-CN': '开单', 'en-US': 'Ordered' },
  orderRemoved: { 'zh-CN': '退项', 'en-US': 'Order removed' },
  hospitalChanged: { 'zh-CN': '改送检医院', 'en-US': 'Hospital changed' },
  cancelled: { 'zh-CN': '标本取消', 'en-US': 'Specimen cancelled' },
  rejected: { 'zh-CN': '标本拒收', 'en-US': 'Specimen rejected' },
  deleted: { 'zh-CN': '标本删除', 'en-US': 'Specimen deleted' },
  recalculated: { 'zh-CN': '价格重算', 'en-US': 'Recalculated' },
  waiverChanged: { 'zh-CN': '免费审批', 'en-US': 'Waiver decided' },
};
const SOURCE: Record<string, Label> = {
  agreement: { 'zh-CN': '协议价', 'en-US': 'Agreed price' },
  standard: { 'zh-CN': '标准价', 'en-US': 'List price' },
  catalogue: { 'zh-CN': '目录价', 'en-US': 'Catalogue price' },
  none: { 'zh-CN': '无价格', 'en-US': 'No price' },
};

/** Columns of the sheet: header in the user's language, and the cell of a line. */
type Cell = (l: ChargeLine & { hospitalName: string }, locale: Locale, timeZone: string) => ExcelJS.CellValue;
const COLUMNS: [Label, Cell, number?][] = [
  [{ 'zh-CN': '条码号', 'en-US': 'Barcode' }, (l) => l.barcode, 14],
  [{ 'zh-CN': '送检医院', 'en-US': 'Hospital' }, (l) => l.hospitalName, 24],
  [{ 'zh-CN': '计费日期', 'en-US': 'Service date' }, (l) => l.serviceDate, 12],
  [{ 'zh-CN': '类型', 'en-US': 'Kind' }, (l, loc) => KIND[l.kind]?.[loc] ?? l.kind, 8],
  [{ 'zh-CN': '编码', 'en-US': 'Code' }, (l) => l.code, 12],
  [{ 'zh-CN': '名称', 'en-US': 'Name' }, (l) => l.name, 18],
  [{ 'zh-CN': '价格来源', 'en-US': 'Price from' }, (l, loc) => SOURCE[l.priceSource]?.[loc] ?? l.priceSource, 10],
  [{ 'zh-CN': '结算价(元)', 'en-US': 'Price (CNY)' }, (l) => l.priceCents / 100, 12],
  [{ 'zh-CN': '折扣率(%)', 'en-US': 'Rate (%)' }, (l) => l.discountRate, 10],
  [{ 'zh-CN': '折扣(元)', 'en-US': 'Discount (CNY)' }, (l) => l.discountCents / 100, 12],
  [{ 'zh-CN': '免费(元)', 'en-US': 'Waived (CNY)' }, (l) => l.freeCents / 100, 12],
  [{ 'zh-CN': '应收(元)', 'en-US': 'Payable (CNY)' }, (l) => l.payableCents / 100, 12],
  [{ 'zh-CN': '原因', 'en-US': 'Reason' }, (l, loc) => REASON[l.reason]?.[loc] ?? l.reason, 12],
  [{ 'zh-CN': '记录人', 'en-US': 'Recorded by' }, (l) => l.createdByName, 10],
  [{ 'zh-CN': '记录时间', 'en-US': 'Recorded at' }, (l, _loc, zone) => localDateTime(new Date(l.createdAt), zone), 20],
];
const MONEY = new Set([7, 9, 10, 11]);

/**
 * Charge lines as a sheet a finance clerk reads beside a statement or a recalculation: one row a line,
 * money shown with two decimals (the cents divided for showing only; every sum was made in cents).
 */
export async function linesWorkbook(
  lines: (ChargeLine & { hospitalName: string })[],
  locale: Locale,
  /** The reader's lab's zone: when each line was recorded, in its local time. */
  timeZone: string,
): Promise<Buffer> {
  const book = await newWorkbook();
  const sheet = book.addWorksheet(locale === 'zh-CN' ? '收费明细' : 'Charge lines');
  sheet.columns = COLUMNS.map(([header, , width], i) => ({
    header: header[locale],
    width: width ?? 12,
    style: MONEY.has(i) ? { numFmt: '0.00' } : {},
  }));
  for (const line of lines) sheet.addRow(COLUMNS.map(([, cell]) => cell(line, locale, timeZone)));
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await book.xlsx.writeBuffer());
}
