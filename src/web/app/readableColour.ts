/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** Contrast ratio of white text on the colour. */
const onWhiteText = (hex: string) => 1.05 / (luminance(hex) + 0.05);

const toHex = (n: number) => Math.round(n).toString(16).padStart(2, '0');

/**
 * The theme colour as buttons, tabs and links can use it with white text or on white (WCAG AA, 4.5:1):
 * the same hue, darkened only as far as needed. The spec's default #409EFF gives 2.8:1, which people
 * with weak sight cannot read; the chosen colour still shows as the user picked it where no text sits on it.
 */
export function readablePrimary(hex: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return hex;
  let colour = hex;
  for (let k = 1; onWhiteText(colour) < 4.6 && k > 0.2;) {
    k -= 0.04;
    colour = `#${[1, 3, 5].map((i) => toHex(parseInt(hex.slice(i, i + 2), 16) * k)).join('')}`;
  }
  return colour;
}
