import type ExcelJS from 'exceljs';
import { newWorkbook } from '../excel.js';
import type { FieldDef, ScreenSchema } from '../../../shared/screens/fields.js';
import { formFields, listColumns, optionLabel } from '../../../shared/screens/fields.js';
import { isEmpty, type RecordValues } from '../../../shared/screens/predicate.js';
import type { Locale } from '../../../shared/i18n/messages.js';
import type { Queryable } from '../db/database.js';
import { dictionaryEntries } from '../dictionaries/lookup.js';
import { InvalidRecord } from '../http/envelope.js';
import { type ApiRecord } from './records.js';

const YES = { 'zh-CN': '是', 'en-US': 'Yes' };
const NO = { 'zh-CN': '否', 'en-US': 'No' };

/** A value as the list shows it: option and reference labels, yes / no, numbers as numbers. */
export function cellValue(field: FieldDef, record: ApiRecord, locale: Locale): ExcelJS.CellValue {
  const value = record[field.key];
  if (isEmpty(value)) return null;
  const label = record.labels?.[field.key];
  if (label !== undefined) return Array.isArray(label) ? label.join('、') : label;
  switch (field.type) {
    case 'enum': {
      const label = (v: unknown) => optionLabel(field, v, locale) ?? String(v);
      return Array.isArray(value) ? value.map(label).join('、') : label(value);
    }
    case 'boolean':
      return value ? YES[locale] : NO[locale];
    case 'integer':
    case 'number':
    case 'money':
      return Number(value);
    case 'dateRange':
      return (value as string[]).join(' ~ ');
    case 'list':
      return JSON.stringify(value);
    default:
      return String(value);
  }
}

/** The filtered list as an .xlsx sheet: the list's columns, headed by their labels, values as shown. */
export async function exportWorkbook(screen: ScreenSchema, records: ApiRecord[], locale: Locale): Promise<Buffer> {
  const workbook = await newWorkbook();
  const sheet = workbook.addWorksheet(screen.title[locale].slice(0, 31));
  const columns = listColumns(screen);
  sheet.columns = columns.map((f) => ({
    header: f.label[locale],
    key: f.key,
    width: Math.max(10, (f.label[locale].length + 2) * 2),
  }));
  sheet.getRow(1).font = { bold: true };
  for (const record of records) sheet.addRow(columns.map((f) => cellValue(f, record, locale)));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function text(cell: ExcelJS.CellValue): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  if (typeof cell === 'object' && 'text' in cell) return String(cell.text);
  if (typeof cell === 'object' && 'result' in cell) return String(cell.result ?? '');
  return String(cell).trim();
}

/** A cell as the field's value; undefined when the cell is empty, the raw text when it cannot be read. */
function parseCell(field: FieldDef, cell: ExcelJS.CellValue, refIds: Map<string, number | string>): unknown {
  const raw = text(cell);
  if (raw === '') return undefined;
  switch (field.type) {
    case 'integer':
    case 'number':
    case 'money':
      return Number.isFinite(Number(raw)) ? Number(raw) : raw;
    case 'boolean':
      return ['是', 'yes', 'true', '1', 'y'].includes(raw.toLowerCase())
        ? true
        : ['否', 'no', 'false', '0', 'n'].includes(raw.toLowerCase())
          ? false
          : raw;
    case 'enum': {
      // A dictionary's entries come in as labels (as exported) or codes; refIds maps label → code here.
      const one = (s: string) =>
        field.options?.find((o) => o.label['zh-CN'] === s || o.label['en-US'] === s || String(o.value) === s)?.value ??
        refIds.get(s) ??
        s;
      return field.multiple
        ? raw
            .split(/[、,，]/)
            .map((s) => one(s.trim()))
            .filter((s) => s !== '')
        : one(raw);
    }
    case 'reference':
    case 'tree': {
      const multiple = field.type === 'reference' ? field.reference?.multiple : field.tree?.multiple;
      const ids = raw
        .split(/[、,，]/)
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => refIds.get(s) ?? (Number.isInteger(Number(s)) ? Number(s) : s));
      return multiple ? ids : ids[0];
    }
    case 'dateRange':
      return raw.split('~').map((s) => s.trim());
    case 'list':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    default:
      return raw;
  }
}

/** Titles of the records a reference may point to, so a sheet can name them instead of giving ids. */
async function referenceTitles(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
): Promise<Map<string, Map<string, number | string>>> {
  const out = new Map<string, Map<string, number | string>>();
  for (const field of screen.fields) {
    if (field.type === 'enum' && field.dictionary) {
      out.set(
        field.key,
        new Map([...(await dictionaryEntries(db, orgId, field.dictionary))].map(([value, label]) => [label, value])),
      );
    }
    const ref = field.type === 'reference' ? field.reference : field.type === 'tree' ? field.tree : undefined;
    if (!ref) continue;
    const rows = await db.query<{ id: number; title: string }>(
      `select id, data->>'${ref.labelField ?? 'name'}' as title from resource_record where resource = $1 and org_id in ($2, 0)`,
      [ref.resource, orgId],
    );
    out.set(field.key, new Map(rows.map((r) => [r.title, r.id])));
  }
  return out;
}

/** A row to import: its number as the user counts it (the sheet's row, or the place in a list), and its values. */
export interface ImportRow {
  row: number;
  body: RecordValues;
}

const notExcel = (locale: Locale) =>
  new InvalidRecord([
    {
      field: '',
      message: locale === 'zh-CN' ? '文件不是有效的 Excel (.xlsx) 文件' : 'The file is not a valid Excel (.xlsx) file',
    },
  ]);

/**
 * The rows of a sheet whose first row names the columns (labels in either language, or field keys),
 * each cell read as its field's value; empty rows are left out.
 */
export async function readSheet(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  buffer: Buffer,
  locale: Locale,
): Promise<ImportRow[]> {
  const workbook = await newWorkbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw notExcel(locale);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const byHeader = new Map<string, FieldDef>();
  // The state column is read too, so that a sheet that sets a state is refused rather than ignored.
  const state = screen.fields.find((f) => f.key === screen.resource.lifecycle?.field);
  for (const f of [...formFields(screen), ...(state ? [state] : [])])
    for (const name of [f.key, f.label['zh-CN'], f.label['en-US']]) byHeader.set(name, f);
  const columns = new Map<number, FieldDef>();
  sheet.getRow(1).eachCell((cell, col) => {
    const field = byHeader.get(text(cell.value));
    if (field) columns.set(col, field);
  });
  const refs = await referenceTitles(db, screen, orgId);
  const rows: ImportRow[] = [];
  for (let n = 2; n <= sheet.rowCount; n++) {
    const row = sheet.getRow(n);
    const body: RecordValues = {};
    for (const [col, field] of columns) {
      const value = parseCell(field, row.getCell(col).value, refs.get(field.key) ?? new Map());
      if (value !== undefined) body[field.key] = value;
    }
    if (Object.keys(body).length > 0) rows.push({ row: n, body });
  }
  return rows;
}
