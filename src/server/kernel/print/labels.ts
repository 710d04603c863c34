import type { Locale } from '../../../shared/i18n/messages.js';
import { pdfDocument } from './document.js';

/** What a specimen label shows beside its barcode. */
export interface LabelData {
  barcode: string;
  patientName?: string;
  sexAge?: string;
  specimenType?: string;
  hospital?: string;
  collectedAt?: string;
  urgent?: boolean;
}

export type Symbology = 'code128' | 'qr';

/** Common thermal label stock: 50 × 30 mm, in PDF points. */
const MM = 72 / 25.4;
const WIDTH = 50 * MM;
const HEIGHT = 30 * MM;
const PAD = 2 * MM;

/**
 * The barcode as a PNG: Code 128 (tubes) or QR (logistics), rendered by bwip-js, never drawn by hand,
 * on white with the quiet zone scanners need around the bars (ten modules each side): a transparent
 * background reads as black to some readers. bwip-js loads with the first barcode, not at server start.
 */
export async function barcodePng(text: string, symbology: Symbology = 'code128'): Promise<Buffer> {
  const { default: bwipjs } = await import('bwip-js/node');
  return symbology === 'qr'
    ? bwipjs.toBuffer({ bcid: 'qrcode', text, scale: 4, paddingwidth: 4, paddingheight: 4, backgroundcolor: 'FFFFFF' })
    : bwipjs.toBuffer({
        bcid: 'code128',
        text,
        scale: 3,
        height: 9,
        includetext: false,
        paddingwidth: 10,
        backgroundcolor: 'FFFFFF',
      });
}

/** One line of text cut with an ellipsis: a height of one line is what makes pdfkit cut (CJK text wraps otherwise). */
function oneLine(doc: PDFKit.PDFDocument, s: string, x: number, y: number, width: number) {
  doc.text(s, x, y, { width, height: doc.currentLineHeight(true), lineBreak: false, ellipsis: true });
}

/** A PDF of label pages, drawn page by page, as bytes. */
async function labelDocument(title: string, draw: (doc: PDFKit.PDFDocument) => Promise<void>): Promise<Buffer> {
  const { doc, bytes } = await pdfDocument({
    size: [WIDTH, HEIGHT],
    margin: 0,
    autoFirstPage: false,
    info: { Title: title },
  });
  await draw(doc);
  doc.end();
  return bytes;
}

/** One specimen label per page, sized for the stock, the barcode's digits printed under its bars for the eye. */
export function labelsPdf(labels: LabelData[], locale: Locale, title: string): Promise<Buffer> {
  return labelDocument(title, async (doc) => {
    for (const label of labels) {
      doc.addPage({ size: [WIDTH, HEIGHT], margin: 0 });
      const inner = WIDTH - 2 * PAD;
      doc.font('bold').fontSize(7);
      oneLine(doc, line([label.patientName, label.sexAge, label.urgent ? urgent(locale) : '']), PAD, PAD, inner);
      doc.image(await barcodePng(label.barcode), PAD, PAD + 9, { width: inner, height: 11 * MM });
      doc
        .font('regular')
        .fontSize(7)
        .text(label.barcode, PAD, PAD + 9 + 11 * MM + 1, { width: inner, align: 'center' });
      doc.fontSize(5.5);
      oneLine(
        doc,
        line([label.specimenType, label.hospital, label.collectedAt?.slice(0, 16)]),
        PAD,
        HEIGHT - PAD - 7,
        inner,
      );
    }
  });
}

/** A record's label: the code a scanner reads, its title and the lines printed beside it. */
export interface RecordLabel {
  title: string;
  code: string;
  symbology: Symbology;
  lines: string[];
}

/**
 * Labels of any screen's records (resource.label): a Code 128 across the label with its text under it
 * and the lines below, or a QR code on the left with the lines at its right.
 */
export function recordLabelsPdf(labels: RecordLabel[], title: string): Promise<Buffer> {
  return labelDocument(title, async (doc) => {
    const inner = WIDTH - 2 * PAD;
    for (const label of labels) {
      doc.addPage({ size: [WIDTH, HEIGHT], margin: 0 });
      const png = await barcodePng(label.code, label.symbology);
      const text = (s: string, x: number, y: number, width: number) => oneLine(doc, s, x, y, width);
      if (label.symbology === 'qr') {
        const side = HEIGHT - 2 * PAD;
        doc.image(png, PAD, PAD, { width: side, height: side });
        const x = PAD + side + PAD;
        doc.font('bold').fontSize(6.5);
        text(label.title, x, PAD, WIDTH - x - PAD);
        doc.font('regular').fontSize(5.5);
        [label.code, ...label.lines].forEach((l, i) => text(l, x, PAD + 10 + i * 8, WIDTH - x - PAD));
        continue;
      }
      doc.font('bold').fontSize(6.5);
      text(label.title, PAD, PAD, inner);
      doc.image(png, PAD, PAD + 8, { width: inner, height: 10 * MM });
      doc.font('regular').fontSize(6.5);
      doc.text(label.code, PAD, PAD + 8 + 10 * MM + 1, { width: inner, align: 'center' });
      doc.fontSize(5.5);
      const top = PAD + 8 + 10 * MM + 9;
      label.lines.slice(0, 4).forEach((l, i) => text(l, PAD, top + i * 6, inner));
    }
  });
}

const line = (parts: (string | undefined)[]) => parts.filter((p) => p).join('  ');
const urgent = (locale: Locale) => (locale === 'en-US' ? 'URGENT' : '急');
