import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../context.js';
import { ApiError, notFound } from '../http/envelope.js';

/** Compared as hashes, so that neither the time taken nor a length difference tells how much of a key was right. */
function sameKey(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * GET /api/system/backup: the embedded database's data directory as a gzipped tar, for `npm run backup`
 * while the server runs (PGlite serves one process, so the command cannot open the directory itself).
 * Guarded by a key of its own (LIMS_BACKUP_KEY, in the X-Backup-Key header) rather than a user's
 * token, so a scheduled job needs no account; without a configured key the call does not exist.
 * On PostgreSQL, pg_dump is the tool (README).
 */
export async function backupRoutes(app: FastifyInstance, kernel: Kernel) {
  app.get('/api/system/backup', { config: { public: true } }, async (request, reply) => {
    const expected = kernel.config.backupKey;
    if (!expected) throw notFound();
    const given = request.headers['x-backup-key'];
    if (typeof given !== 'string' || !sameKey(given, expected)) throw new ApiError(401, 'backup.key');
    if (!kernel.db.dump) throw new ApiError(400, 'backup.postgres');
    const started = Date.now();
    const tar = await kernel.db.dump();
    request.log.info({ bytes: tar.byteLength, ms: Date.now() - started }, 'backup taken');
    return reply
      .header('Content-Type', 'application/gzip')
      .header('Content-Disposition', 'attachment; filename="lims-backup.tar.gz"')
      .send(Buffer.from(tar));
  });
}
