/** The part of fontkit (pdfkit's own font engine) this server uses: parse a font file once. */
declare module 'fontkit' {
  export interface Font {
    layout(text: string): unknown;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Uint8Array): Font;
}
