/**
 * A PDF being drawn, in the slip fonts ('regular' and 'bold', CJK), and its bytes once it ends.
 * pdfkit and fontkit are loaded with the first document a process prints, not at every server start:
 * together they take most of a second to load, and many processes never print.
 */
export interface PdfInProgress {
  doc: PDFKit.PDFDocument;
  /** The file, resolved when `doc.end()` has been called and the last chunk written. */
  bytes: Promise<Buffer>;
}

export async function pdfDocument(options: PDFKit.PDFDocumentOptions): Promise<PdfInProgress> {
  const [{ default: PDFDocument }, { slipFont }] = await Promise.all([import('pdfkit'), import('./fonts.js')]);
  const [regular, bold] = await Promise.all([slipFont('regular'), slipFont('bold')]);
  const doc = new PDFDocument(options);
  // pdfkit takes a parsed fontkit font as well as a file; its type only says file.
  doc.registerFont('regular', regular as unknown as Buffer);
  doc.registerFont('bold', bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, bytes };
}
