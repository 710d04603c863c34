import type ExcelJS from 'exceljs';

/**
 * exceljs, loaded with the first workbook a process reads or writes rather than at every server start
 * (it takes about a second to load, and most processes never touch a spreadsheet).
 */
export async function newWorkbook(): Promise<ExcelJS.Workbook> {
  const { default: excel } = await import('exceljs');
  return new excel.Workbook();
}
