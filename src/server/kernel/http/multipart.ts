import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './envelope.js';

/**
 * multipart/form-data bodies (spec 7.6 upsertDictImg; a file sent with its fields): read whole within
 * a size limit, then parsed by the runtime's own FormData parser (the fetch Response of Node), so the
 * server needs no upload package for the small files it keeps.
 */
export function acceptMultipart(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
    done(null, body),
  );
}

export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
}

export interface FormParts {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/** The fields and files of a multipart body; undefined when the body is not multipart. */
export async function formParts(request: FastifyRequest): Promise<FormParts | undefined> {
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data') || !Buffer.isBuffer(request.body)) return undefined;
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(request.body), { headers: { 'content-type': type } }).formData();
  } catch {
    throw badRequest('upload.unreadable');
  }
  const parts: FormParts = { fields: {}, files: [] };
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parts.fields[name] = value;
    else parts.files.push({ fileName: value.name, bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return parts;
}
