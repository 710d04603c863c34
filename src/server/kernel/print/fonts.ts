import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Font } from 'fontkit';

/**
 * The CJK font of the printed slips: Noto Sans Hans (SIL OFL), the GB2312 subset that the npm package
 * @embedpdf/fonts-sc ships, so a fresh clone prints Chinese after `npm ci` alone. Each file is parsed
 * once per process (some 8 MB; parsing it again for every PDF would cost a second), and pdfkit embeds
 * only the glyphs a slip uses. fontkit itself is imported here, when the first slip is drawn: the server
 * is one bundle, and a static import would load it (~0.3 s) at every start of every process.
 */
const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('@embedpdf/fonts-sc')), '..', 'fonts');

export type FontWeight = 'regular' | 'bold';
const FILES: Record<FontWeight, string> = { regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' };
const parsed = new Map<FontWeight, Font>();

export async function slipFont(weight: FontWeight): Promise<Font> {
  let font = parsed.get(weight);
  if (!font) {
    const fontkit = await import('fontkit');
    font = fontkit.create(readFileSync(path.join(FONT_DIR, FILES[weight])));
    parsed.set(weight, font);
  }
  return font;
}
