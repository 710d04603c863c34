import type { BreakpointRecord } from '../../shared/generated/resources.js';
import type { FastifyInstance } from 'fastify';
import type { Locale } from '../../shared/i18n/messages.js';
import type { Kernel } from '../kernel/context.js';
import { ok } from '../kernel/http/envelope.js';
import { present } from '../kernel/resources/records.js';
import { refuse, runRecordCommand } from '../kernel/resources/commands.js';

const MESSAGES = {
  noBreakpoint: {
    'zh-CN': '没有适用于该菌种、抗生素和方法的当前折点',
    'en-US': 'No current breakpoint covers this organism group, antibiotic and method',
  },
  noMeasure: { 'zh-CN': '请先录入 MIC 或抑菌圈直径', 'en-US': 'Enter the MIC or the zone diameter first' },
} satisfies Record<string, Record<Locale, string>>;

/** S / I / R of one measurement against one breakpoint row (MIC: S ≤ x, R ≥ y; disk: S ≥ x, R ≤ y). */
export function interpret(
  method: 'mic' | 'disk',
  measured: number,
  bp: Pick<BreakpointRecord, 'micS' | 'micR' | 'zoneS' | 'zoneR'>,
): 'S' | 'I' | 'R' {
  if (method === 'mic') return measured <= Number(bp.micS) ? 'S' : measured >= Number(bp.micR) ? 'R' : 'I';
  return measured >= Number(bp.zoneS) ? 'S' : measured <= Number(bp.zoneR) ? 'R' : 'I';
}

/**
 * Interprets a susceptibility result (domain notes, microbiology) with the current breakpoint of the
 * organism's group, the antibiotic and the method, and records which table version was used, so a
 * later table never re-reads an old result silently.
 */
export async function microbiologyRoutes(app: FastifyInstance, ctx: Kernel) {
  app.post<{ Params: { id: string } }>('/api/microbiology/susceptibility/:id/interpret', async (request) => {
    const locale = request.locale;
    const row = await runRecordCommand(
      ctx,
      request,
      'susceptibilityResult',
      'astInterpret',
      async (tx, result, actor) => {
        const method = result.data.method as 'mic' | 'disk';
        const measured = Number(method === 'mic' ? result.data.mic : result.data.zoneMm);
        if (!Number.isFinite(measured) || (method === 'mic' ? result.data.mic : result.data.zoneMm) === undefined)
          refuse(locale, MESSAGES.noMeasure);
        const species = await ctx.records.get(tx, 'bacterialSpecies', actor.orgId, result.data.species);
        const rows = await ctx.records.find(tx, 'breakpoint', actor.orgId, {
          current: true,
          method,
          antibiotic: String(result.data.antibiotic),
        });
        const bp = rows.find((r) => r.data.organismGroup === species?.data.organismGroup);
        if (!bp) refuse(locale, MESSAGES.noBreakpoint, 'antibiotic');
        return {
          interpretation: interpret(method, measured, bp.data),
          breakpointVersion: String(bp.data.tableVersion),
        };
      },
    );
    return ok(present(row));
  });
}
