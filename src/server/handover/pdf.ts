import { pdfDocument } from '../kernel/print/document.js';

/** One printed document of the handover calls: a title, label/value pairs, a table, then signatures. */
export interface PrintedPage {
  title: string;
  /** Label / value pairs under the title, two to a line. */
  header: { label: string; value: string }[];
  /** A line printed in full under the header (the discrepancy). */
  note?: { label: string; value: string };
  table: { columns: { label: string; weight: number }[]; rows: string[][] };
  /** Closing line under the table ("共 12 个标本"). */
  total: string;
  /** Two signature captions (hand-over, receipt), when the template prints them. */
  signatures?: [string, string];
  footer?: string;
}

export interface PrintOptions {
  landscape?: boolean;
  /** "打印时间 2026-01-20 09:35:00", printed at the foot of every page. */
  printedAt: string;
  /** Document title in the PDF's properties. */
  documentTitle: string;
}

const MARGIN = 36;
const CELL_PAD = 3;
const BODY_SIZE = 9;

type Doc = PDFKit.PDFDocument;

function drawHeader(doc: Doc, page: PrintedPage, width: number) {
  doc.font('bold').fontSize(16).text(page.title, MARGIN, MARGIN, { width, align: 'center' });
  doc.moveDown(0.6);
  doc.font('regular').fontSize(BODY_SIZE + 1);
  const half = width / 2;
  for (let i = 0; i < page.header.length; i += 2) {
    const y = doc.y;
    let bottom = y;
    for (const [j, pair] of page.header.slice(i, i + 2).entries()) {
      doc.text(`${pair.label}：${pair.value || '—'}`, MARGIN + j * half, y, { width: half - 8 });
      bottom = Math.max(bottom, doc.y);
    }
    doc.y = bottom + 2;
  }
  if (page.note) doc.text(`${page.note.label}：${page.note.value}`, MARGIN, doc.y + 2, { width });
  doc.moveDown(0.5);
}

/** Widths of the table's columns: the row-number column, then the rest by their weights. */
function columnWidths(page: PrintedPage, width: number): number[] {
  const numberWidth = 28;
  const total = page.table.columns.reduce((n, c) => n + c.weight, 0) || 1;
  return [numberWidth, ...page.table.columns.map((c) => ((width - numberWidth) * c.weight) / total)];
}

function rowHeight(doc: Doc, cells: string[], widths: number[]): number {
  return (
    Math.max(...cells.map((text, i) => doc.heightOfString(text || ' ', { width: widths[i]! - 2 * CELL_PAD }))) +
    2 * CELL_PAD
  );
}

function drawRow(doc: Doc, cells: string[], widths: number[], y: number, height: number, shaded: boolean) {
  let x = MARGIN;
  if (shaded)
    doc
      .rect(
        MARGIN,
        y,
        widths.reduce((a, b) => a + b, 0),
        height,
      )
      .fillColor('#eeeeee')
      .fill()
      .fillColor('black');
  cells.forEach((text, i) => {
    const w = widths[i]!;
    doc.rect(x, y, w, height).lineWidth(0.5).strokeColor('#888888').stroke();
    doc.text(text, x + CELL_PAD, y + CELL_PAD, { width: w - 2 * CELL_PAD });
    x += w;
  });
}

/** The table, continued on new pages with its header row repeated. */
function drawTable(doc: Doc, page: PrintedPage, width: number) {
  const widths = columnWidths(page, width);
  const head = ['#', ...page.table.columns.map((c) => c.label)];
  const bottom = () => doc.page.height - MARGIN - 24;
  doc.font('regular').fontSize(BODY_SIZE);
  const header = () => {
    const h = rowHeight(doc, head, widths);
    const y = doc.y;
    drawRow(doc, head, widths, y, h, true);
    doc.y = y + h;
  };
  header();
  page.table.rows.forEach((row, i) => {
    const cells = [String(i + 1), ...row];
    const h = rowHeight(doc, cells, widths);
    if (doc.y + h > bottom()) {
      doc.addPage();
      doc.y = MARGIN;
      header();
    }
    const y = doc.y;
    drawRow(doc, cells, widths, y, h, false);
    doc.y = y + h;
  });
}

function drawClosing(doc: Doc, page: PrintedPage, width: number) {
  doc.font('regular').fontSize(BODY_SIZE + 1);
  if (doc.y + 60 > doc.page.height - MARGIN - 24) {
    doc.addPage();
    doc.y = MARGIN;
  }
  doc.text(page.total, MARGIN, doc.y + 6, { width });
  if (page.signatures) {
    const y = doc.y + 18;
    page.signatures.forEach((caption, i) =>
      doc.text(`${caption}：________________`, MARGIN + (i * width) / 2, y, { width: width / 2 }),
    );
  }
  if (page.footer) doc.text(page.footer, MARGIN, doc.y + 10, { width });
}

/**
 * Renders pages as one PDF (each handover from a new sheet), A4, in the CJK font; the printing time
 * stands at the foot of every sheet. Answers the file's bytes.
 */
export async function renderPdf(pages: PrintedPage[], options: PrintOptions): Promise<Buffer> {
  const { doc, bytes } = await pdfDocument({
    size: 'A4',
    layout: options.landscape ? 'landscape' : 'portrait',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: options.documentTitle, Creator: 'LIMS' },
  });
  const width = doc.page.width - 2 * MARGIN;
  pages.forEach((page, i) => {
    if (i > 0) doc.addPage();
    drawHeader(doc, page, width);
    drawTable(doc, page, width);
    drawClosing(doc, page, width);
  });
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Inside the bottom margin: pdfkit would start a new page for text below it.
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(8)
      .text(options.printedAt, MARGIN, doc.page.height - MARGIN, { width, align: 'right', lineBreak: false });
  }
  doc.end();
  return bytes;
}
