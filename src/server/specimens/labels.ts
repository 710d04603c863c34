import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import type { Locale } from '../../shared/i18n/messages.js';
import { slipFont } from '../kernel/print/fonts.js';

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

/** Common thermal label stock: 50 × 30 mm, in PDF points. */
const MM = 72 / 25.4;
const WIDTH = 50 * MM;
const HEIGHT = 30 * MM;
const PAD = 2 * MM;

/**
 * The barcode as a PNG: Code 128 (tubes) or QR (logistics), rendered by bwip-js, never drawn by hand,
 * on white with the quiet zone scanners need around the bars (ten modules each side): a transparent
 * background reads as black to some readers.
 */
export function barcodePng(text: string, symbology: 'code128' | 'qr' = 'code128'): Promise<Buffer> {
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

/** One label per page, sized for the stock, the barcode's digits printed under its bars for the eye. */
export async function labelsPdf(labels: LabelData[], locale: Locale, title: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: [WIDTH, HEIGHT], margin: 0, autoFirstPage: false, info: { Title: title } });
  doc.registerFont('regular', slipFont('regular') as never);
  doc.registerFont('bold', slipFont('bold') as never);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const label of labels) {
    doc.addPage({ size: [WIDTH, HEIGHT], margin: 0 });
    const inner = WIDTH - 2 * PAD;
    doc
      .font('bold')
      .fontSize(7)
      .text(line([label.patientName, label.sexAge, label.urgent ? urgent(locale) : '']), PAD, PAD, {
        width: inner,
        lineBreak: false,
        ellipsis: true,
      });
    doc.image(await barcodePng(label.barcode), PAD, PAD + 9, { width: inner, height: 11 * MM });
    doc
      .font('regular')
      .fontSize(7)
      .text(label.barcode, PAD, PAD + 9 + 11 * MM + 1, { width: inner, align: 'center' });
    doc
      .fontSize(5.5)
      .text(line([label.specimenType, label.hospital, label.collectedAt?.slice(0, 16)]), PAD, HEIGHT - PAD - 7, {
        width: inner,
        lineBreak: false,
        ellipsis: true,
      });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

const line = (parts: (string | undefined)[]) => parts.filter((p) => p).join('  ');
const urgent = (locale: Locale) => (locale === 'en-US' ? 'URGENT' : '急');
