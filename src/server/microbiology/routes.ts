import type { FastifyInstance } from 'fastify';
import { isEmpty } from '../../shared/screens/predicate.js';
import type { Kernel } from '../kernel/context.js';
import { ok } from '../kernel/http/envelope.js';
import { present } from '../kernel/resources/records.js';
import { runRecordCommand } from '../kernel/resources/commands.js';
import { labTable } from './guideline.js';
import { MICRO_MESSAGES, refused } from './messages.js';

/**
 * Interpret (判读) on one result: reads it again with the table the lab has chosen now, a deliberate
 * step logged under the command's name (an ordinary save keeps the table the result was read with).
 * The category itself comes from the result's rule, as on every save.
 */
export async function microbiologyRoutes(app: FastifyInstance, ctx: Kernel) {
  app.post<{ Params: { id: string } }>('/api/microbiology/susceptibility/:id/interpret', async (request) => {
    const { locale } = request;
    const row = await runRecordCommand(
      ctx,
      request,
      'susceptibilityResult',
      'astInterpret',
      async (tx, result, actor) => {
        const value = result.data.method === 'mic' ? result.data.mic : result.data.zoneMm;
        if (isEmpty(value)) refused(MICRO_MESSAGES.noMeasure, locale);
        const table = await labTable(ctx, tx, actor.orgId, locale);
        return { guideline: table.guideline, breakpointVersion: table.version };
      },
    );
    return ok(present(row));
  });
}
