import type { FastifyInstance } from 'fastify';
import type { QcMaterialRecord, QcResultRecord } from '../../shared/generated/resources.js';
import type { Kernel } from '../kernel/context.js';
import { ok } from '../kernel/http/envelope.js';
import { present } from '../kernel/resources/records.js';
import { runRecordCommand, screenOf } from '../kernel/resources/commands.js';
import { page } from '../kernel/http/computedPage.js';

type Query = Record<string, string | undefined>;
type Row = Record<string, unknown>;

const round = (n: number) => Math.round(n * 10_000) / 10_000;
/** A date-only upper bound covers the whole day of run times. */
const endOfDay = (to: string | undefined) => (to && to.length === 10 ? `${to} 23:59:59` : to);

/** Whether a run is one of those its lot's own target was established from. */
function establishing(run: QcResultRecord, lot: QcMaterialRecord | undefined): boolean {
  if (!lot?.establishedFrom || !lot.establishedTo || run.status === 'reject') return false;
  const at = String(run.runAt);
  return at >= lot.establishedFrom && at <= lot.establishedTo;
}

/**
 * QC's own calls: judging a run again on demand (after its plan's rules or its lot's target were
 * changed; saving a run judges it by itself), and the Levey-Jennings points of the QC chart screen.
 */
export async function qcRoutes(app: FastifyInstance, ctx: Kernel) {
  const { records } = ctx;

  /** The run written again unchanged: the QC rules on writes of a result judge it and the runs after it. */
  app.post<{ Params: { id: string } }>('/api/qc/results/:id/evaluate', async (request) => {
    const row = await runRecordCommand(ctx, request, 'qcResult', 'qcEvaluate', () => Promise.resolve({}));
    return ok(present(row));
  });

  /**
   * Levey-Jennings points: each judged run with the target it was judged against and its ±1 / ±2 / ±3
   * SD lines, its lot (the chart marks where the lot changes) and whether it is one of the runs its
   * lot's own target was established from (the chart shades them).
   */
  app.get<{ Querystring: Query }>('/api/qc/chart', async (request) => {
    const { actor } = screenOf(ctx, request, 'statQcChart', 'read');
    const { screen } = screenOf(ctx, request, 'qcResult', 'read');
    const query = request.query;
    const params: Query = { runAtFrom: query.runAtFrom, runAtTo: endOfDay(query.runAtTo), plan: query.plan };
    const runs = (await records.filtered(ctx.db, screen, actor.orgId, params, 100_000)).map(
      (r) => r.data as unknown as QcResultRecord,
    );
    const plans = await records.titles(
      ctx.db,
      'qcPlan',
      actor.orgId,
      runs.map((r) => Number(r.plan)),
    );
    const lotIds = [...new Set(runs.map((r) => Number(r.material)).filter((id) => id > 0))];
    const lots = new Map((await records.byIds(ctx.db, 'qcMaterial', actor.orgId, lotIds)).map((m) => [m.id, m.data]));
    const rows = runs
      .filter((r) => typeof r.zScore === 'number' && typeof r.targetMean === 'number' && typeof r.targetSd === 'number')
      .sort((a, b) => String(a.runAt).localeCompare(String(b.runAt)))
      .map((r, i): Row => {
        const mean = r.targetMean!;
        const sd = r.targetSd!;
        const lot = lots.get(Number(r.material));
        return {
          group: plans.get(Number(r.plan)) ?? '—',
          plan: r.plan,
          runAt: r.runAt,
          value: r.value,
          zScore: r.zScore,
          violations: r.violations ?? '',
          lotNo: lot?.lotNo ?? '',
          establishing: establishing(r, lot),
          count: i + 1,
          mean,
          lower1s: round(mean - sd),
          upper1s: round(mean + sd),
          lower2s: round(mean - 2 * sd),
          upper2s: round(mean + 2 * sd),
          lower3s: round(mean - 3 * sd),
          upper3s: round(mean + 3 * sd),
        };
      });
    return ok(page(rows, query, 'runAt,asc'));
  });
}
