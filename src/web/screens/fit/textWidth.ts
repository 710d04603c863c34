/**
 * How wide a short text renders, for laying out columns and buttons before they are drawn. The
 * browser's canvas measures it in the table's font; where there is no canvas (unit tests) an
 * estimate by kind of character stands in: CJK characters are an em wide, others about 0.6 em.
 */
const cache = new Map<string, number>();
let context: CanvasRenderingContext2D | null | undefined;

function canvas(): CanvasRenderingContext2D | null {
  if (context === undefined) {
    try {
      context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      context = null;
    }
  }
  return context;
}

const WIDE = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

/** The estimate where nothing measures: generous rather than short, so that a button never clips. */
export function estimateWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const ch of text) em += WIDE.test(ch) ? 1 : ch === ' ' ? 0.3 : 0.62;
  return Math.ceil(em * fontSize);
}

/** The width of a text in px at a font size, in the font the app's tables use. */
export function textWidth(text: string, fontSize: number, fontFamily = 'sans-serif'): number {
  const id = `${fontSize}|${fontFamily}|${text}`;
  let width = cache.get(id);
  if (width === undefined) {
    const ctx = canvas();
    if (ctx) {
      ctx.font = `${fontSize}px ${fontFamily}`;
      width = Math.ceil(ctx.measureText(text).width);
    }
    // A canvas that measures nothing (a stub) is no measure.
    if (!width) width = estimateWidth(text, fontSize);
    cache.set(id, width);
  }
  return width;
}
