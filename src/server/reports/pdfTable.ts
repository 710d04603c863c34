/** A table's columns: the key of each cell and its share of the table's width. */
export type TableColumns<K extends string> = [K, number][];

/**
 * One line of a report's table (results, susceptibility): each cell in its share of the width, all
 * starting at the same height, then the next line below.
 */
export function tableRow<K extends string>(
  doc: PDFKit.PDFDocument,
  columns: TableColumns<K>,
  cells: Record<K, string>,
  font: 'regular' | 'bold',
  box: { left: number; width: number },
): void {
  const y = doc.y;
  let x = box.left;
  for (const [key, share] of columns) {
    doc
      .font(font)
      .fontSize(9)
      .text(cells[key], x, y, { width: box.width * share - 4 });
    x += box.width * share;
  }
  doc.x = box.left;
  doc.moveDown(0.3);
}
