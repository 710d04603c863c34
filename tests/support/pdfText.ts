import { inflateSync } from 'node:zlib';

/**
 * The text a PDF shows, read the way a viewer does: each page's content stream (inflated), its text
 * operators (Tj / TJ) decoded through the ToUnicode map of the font selected by Tf. Enough for the
 * files pdfkit writes (embedded Type0 fonts, two-byte codes); a string that only sits in the file's
 * metadata is not text of the document and is not found here.
 */
export function pdfText(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const objects = new Map<number, { dict: string; stream?: Buffer }>();
  for (const m of source.matchAll(/(\d+) 0 obj([\s\S]*?)endobj/g)) {
    const body = m[2]!;
    const at = body.indexOf('stream');
    if (at < 0) {
      objects.set(Number(m[1]), { dict: body });
      continue;
    }
    const dict = body.slice(0, at);
    const start = m.index! + m[0].indexOf('stream') + 'stream'.length + (body[at + 6] === '\r' ? 2 : 1);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? 0);
    const raw = pdf.subarray(start, start + length);
    objects.set(Number(m[1]), { dict, stream: dict.includes('/FlateDecode') ? inflateSync(raw) : raw });
  }
  const cmapOf = (fontId: number) => {
    const ref = /\/ToUnicode (\d+) 0 R/.exec(objects.get(fontId)?.dict ?? '')?.[1];
    return parseCmap(objects.get(Number(ref))?.stream?.toString('latin1') ?? '');
  };
  const lines: string[] = [];
  for (const [, object] of objects) {
    if (!/\/Type \/Page\b/.test(object.dict)) continue;
    const fonts = new Map(
      [...resourcesOf(object.dict, objects).matchAll(/\/(F\d+) (\d+) 0 R/g)].map((f) => [f[1]!, cmapOf(Number(f[2]))]),
    );
    for (const contentRef of contentRefs(object.dict)) {
      const content = objects.get(contentRef)?.stream?.toString('latin1') ?? '';
      lines.push(...showText(content, fonts));
    }
  }
  return lines.join('\n');
}

function resourcesOf(pageDict: string, objects: Map<number, { dict: string }>): string {
  const ref = /\/Resources (\d+) 0 R/.exec(pageDict)?.[1];
  return ref ? (objects.get(Number(ref))?.dict ?? '') : pageDict;
}

function contentRefs(pageDict: string): number[] {
  const list = /\/Contents \[([^\]]*)\]/.exec(pageDict)?.[1] ?? /\/Contents (\d+ 0 R)/.exec(pageDict)?.[1] ?? '';
  return [...list.matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
}

/** Code → text of a ToUnicode CMap (bfchar and bfrange, both forms of the range). */
function parseCmap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const utf16 = (hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      map.set(parseInt(m[1]!, 16), utf16(m[2]!));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const lo = parseInt(m[1]!, 16);
      const hi = parseInt(m[2]!, 16);
      const targets = m[3]!.startsWith('[')
        ? [...m[3]!.matchAll(/<([0-9a-fA-F]+)>/g)].map((x) => utf16(x[1]!))
        : undefined;
      for (let code = lo; code <= hi; code++) {
        if (targets) map.set(code, targets[code - lo] ?? '');
        else map.set(code, String.fromCharCode(parseInt(m[3]!.slice(1, -1), 16) + code - lo));
      }
    }
  }
  return map;
}

/** The strings of a content stream's text operators, in order, one per operator. */
function showText(content: string, fonts: Map<string, Map<number, string>>): string[] {
  const out: string[] = [];
  let cmap = new Map<number, string>();
  for (const m of content.matchAll(/\/(F\d+) [\d.]+ Tf|\[((?:<[0-9a-fA-F]*>|[^\]])*)\] TJ|<([0-9a-fA-F]*)> Tj/g)) {
    if (m[1]) {
      cmap = fonts.get(m[1]) ?? new Map();
      continue;
    }
    const hexes = m[2] !== undefined ? [...m[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((x) => x[1]!) : [m[3]!];
    out.push(
      hexes
        .map((hex) => (hex.match(/.{4}/g) ?? []).map((code) => cmap.get(parseInt(code, 16)) ?? '\uFFFD').join(''))
        .join(''),
    );
  }
  return out;
}
