/**
 * Files a record keeps in itself as a data URL (the image and file fields of the screens, the pictures
 * of form pages and input-helper nodes): small ones only, within the server's body limit.
 */
export const MAX_FILE_BYTES = 512 * 1024;

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Image types a picture may be, each told by its first bytes. */
const IMAGE_SIGNATURES: { mime: string; matches: (bytes: Uint8Array) => boolean }[] = [
  { mime: 'image/png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', matches: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')) },
  { mime: 'image/webp', matches: (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8) },
  { mime: 'image/bmp', matches: (b) => startsWith(b, ascii('BM')) && b.length > 26 },
];

/** The image type of a file by its content (never by its name or the type a sender claims); undefined when it is none. */
export function imageMime(bytes: Uint8Array): string | undefined {
  return IMAGE_SIGNATURES.find((s) => s.matches(bytes))?.mime;
}
