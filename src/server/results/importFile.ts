import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { newWorkbook } from '../kernel/excel.js';
import type { Locale } from '../../shared/i18n/messages.js';
import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';
import { InvalidRecord } from '../kernel/http/envelope.js';
import { rowLabel } from '../kernel/resources/service.js';

/** A line of a results file: where it is, the specimen's barcode, the item's code and the value. */
export interface ResultLine {
  row: number;
  barcode: string;
  itemCode: string;
  value: string;
}

const HEADERS: Record<keyof Omit<ResultLine, 'row'>, string[]> = {
  barcode: ['barcode', '条码号', '条码'],
  itemCode: ['itemcode', 'item code', 'item', '项目代码', '项目编码'],
  value: ['value', 'result', '结果', '结果值'],
};

const cellText = (value: ExcelJS.CellValue): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && 'text' in value) return String(value.text);
  if (typeof value === 'object' && 'result' in value) return String(value.result ?? '');
  return String(value).trim();
};

const WORDS = {
  'zh-CN': {
    unreadable: '无法读取结果文件：请上传首行为“条码号、项目代码、结果”的 Excel 或 CSV 文件',
    noResult: (barcode: string, code: string) => `标本 ${barcode} 没有项目 ${code} 的待检结果`,
  },
  'en-US': {
    unreadable:
      'The results file cannot be read: upload an Excel or CSV file whose first row is barcode, item code, result',
    noResult: (barcode: string, code: string) => `specimen ${barcode} has no pending result of item ${code}`,
  },
};

/**
 * The lines of a results file (an instrument's export, a spreadsheet): Excel or CSV, read by exceljs,
 * the first row naming the columns (barcode, item code, value, in either language).
 */
export async function readResultFile(bytes: Buffer, fileName: string, locale: Locale): Promise<ResultLine[]> {
  const book = await newWorkbook();
  try {
    if (/\.csv$/i.test(fileName)) await book.csv.read(Readable.from(bytes.toString('utf8').replace(/^\uFEFF/, '')));
    else await book.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new InvalidRecord([{ field: '', message: WORDS[locale].unreadable }]);
  }
  const sheet = book.worksheets[0];
  const columns = new Map<keyof typeof HEADERS, number>();
  sheet?.getRow(1).eachCell((cell, col) => {
    const name = cellText(cell.value).toLowerCase();
    for (const [key, names] of Object.entries(HEADERS) as [keyof typeof HEADERS, string[]][])
      if (names.includes(name)) columns.set(key, col);
  });
  if (!sheet || columns.size < 3) throw new InvalidRecord([{ field: '', message: WORDS[locale].unreadable }]);
  const lines: ResultLine[] = [];
  for (let n = 2; n <= sheet.rowCount; n++) {
    const row = sheet.getRow(n);
    const get = (key: keyof typeof HEADERS) => cellText(row.getCell(columns.get(key)!).value);
    const line = { row: n, barcode: get('barcode'), itemCode: get('itemCode'), value: get('value') };
    if (line.barcode || line.itemCode || line.value) lines.push(line);
  }
  return lines;
}

/** The result each line fills: the specimen's result of the item of that code, while it may still be entered. */
export async function resultsOfLines(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  lines: ResultLine[],
  locale: Locale,
): Promise<{ id: number; result: string; row: number }[]> {
  const items = await kernel.records.find(tx, 'inspectionItem', orgId, {
    code: [...new Set(lines.map((l) => l.itemCode))],
  });
  const itemOf = new Map(items.map((i) => [String(i.data.code), i.id]));
  const results = await kernel.records.find(tx, 'inspectionResult', orgId, {
    barcode: [...new Set(lines.map((l) => l.barcode))],
  });
  const errors = [];
  const found = [];
  for (const line of lines) {
    const item = itemOf.get(line.itemCode);
    const result = results.find(
      (r) =>
        r.data.barcode === line.barcode &&
        r.data.item === item &&
        ['pending', 'tested'].includes(String(r.data.status)),
    );
    if (result) found.push({ id: result.id, result: line.value, row: line.row });
    else
      errors.push({
        field: '',
        message: rowLabel(line.row, locale, WORDS[locale].noResult(line.barcode, line.itemCode)),
      });
  }
  if (errors.length > 0) throw new InvalidRecord(errors.slice(0, 200));
  return found;
}
