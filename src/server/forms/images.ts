import type { FastifyRequest } from 'fastify';
import { imageMime, MAX_FILE_BYTES } from '../../shared/files.js';
import { badRequest } from '../kernel/http/envelope.js';
import { formParts } from '../kernel/http/multipart.js';

/**
 * Pictures sent to the server (spec 7.6 saveImage, upsertDictImg): a file part of a multipart body, or
 * an `image` data URL in a JSON body as the screens' image fields send it. Either way the picture is
 * kept as a data URL, the way the generic resource keeps image fields, after its bytes prove it an image
 * (PNG, JPEG, GIF, WebP, BMP) no larger than the screens accept.
 */
const tooLarge = () => badRequest('image.tooLarge', { kb: MAX_FILE_BYTES / 1024 });

/** A data URL of the image; refuses what is not an image or is too large. */
export function imageDataUrl(bytes: Buffer): string {
  if (bytes.length === 0) throw badRequest('image.missing');
  if (bytes.length > MAX_FILE_BYTES) throw tooLarge();
  const mime = imageMime(bytes);
  if (!mime) throw badRequest('image.invalid');
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,([A-Za-z0-9+/]*={0,2})$/;

/** An image data URL as a sender wrote it, checked by its decoded bytes and written anew. */
function checkedDataUrl(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw badRequest('image.missing');
  // Checked before decoding: a huge text is refused without being decoded.
  if (value.length > Math.ceil((MAX_FILE_BYTES * 4) / 3) + 200) throw tooLarge();
  const base64 = DATA_URL.exec(value)?.[2];
  if (base64 === undefined) throw badRequest('image.invalid');
  return imageDataUrl(Buffer.from(base64, 'base64'));
}

/** The picture of a call and the values sent beside it (query, form fields or JSON body). */
export async function imageInput(request: FastifyRequest): Promise<{ image: string; values: Record<string, unknown> }> {
  const query = request.query as Record<string, unknown>;
  const parts = await formParts(request);
  if (parts) {
    if (parts.files.length !== 1) throw badRequest('image.missing');
    return { image: imageDataUrl(parts.files[0]!.bytes), values: { ...query, ...parts.fields } };
  }
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body))
    throw badRequest('image.missing');
  const values = { ...query, ...(body as Record<string, unknown>) };
  return { image: checkedDataUrl(values.image), values };
}
