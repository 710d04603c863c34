import { localDateTime } from '../../shared/time.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Locale } from '../../shared/i18n/messages.js';
import type { Kernel } from '../kernel/context.js';
import { ok } from '../kernel/http/envelope.js';
import { sendWorkbook } from '../kernel/resources/routes.js';
import { present } from '../kernel/resources/records.js';
import type { StoredRecord } from '../kernel/resources/repository.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import { refuse, runRecordCommand } from '../kernel/resources/commands.js';
import { exportLines, hospitalTotals, listLines } from './lines.js';
import { runRecalculation } from './recalculation.js';

const MESSAGES = {
  closed: { 'zh-CN': '该结算已审核完毕，不能再次审核', 'en-US': 'This settlement audit is already closed' },
  samePerson: {
    'zh-CN': '终审人不能与初审人为同一人',
    'en-US': 'The final audit must be done by someone other than the first auditor',
  },
} satisfies Record<string, Record<Locale, string>>;

/** The next step of the two-step settlement audit (domain notes, finance): first, then final, by two people. */
function step(
  record: StoredRecord,
  actor: AuthUser,
  approve: boolean,
  now: Date,
  locale: Locale,
  opinion?: string,
): Record<string, unknown> {
  const status = (record.data.status as string | undefined) ?? 'firstPending';
  const note = opinion ? { opinion } : {};
  if (status === 'firstPending') {
    return {
      ...note,
      firstAuditor: actor.userAccount,
      firstAuditAt: localDateTime(now, actor.timeZone),
      status: approve ? 'finalPending' : 'rejected',
    };
  }
  if (status !== 'finalPending') refuse(locale, MESSAGES.closed);
  if (record.data.firstAuditor === actor.userAccount) refuse(locale, MESSAGES.samePerson);
  return {
    ...note,
    finalAuditor: actor.userAccount,
    finalAuditAt: localDateTime(now, actor.timeZone),
    status: approve ? 'approved' : 'rejected',
  };
}

export async function financeRoutes(app: FastifyInstance, ctx: Kernel) {
  const audit =
    (approve: boolean) =>
    async (request: FastifyRequest<{ Params: { id: string }; Body: { opinion?: unknown } | undefined }>) => {
      const opinion = typeof request.body?.opinion === 'string' ? request.body.opinion.slice(0, 500) : undefined;
      const row = await runRecordCommand(
        ctx,
        request,
        'settlementAudit',
        approve ? 'settlementApprove' : 'settlementReject',
        async (_tx, record, actor) => step(record, actor, approve, ctx.now(), request.locale, opinion),
      );
      return ok(present(row));
    };
  app.post('/api/finance/settlementAudit/:id/approve', audit(true));
  app.post('/api/finance/settlementAudit/:id/reject', audit(false));

  // Charges: the lines, each hospital's totals, and running a price recalculation.
  type Listing = FastifyRequest<{ Querystring: Record<string, string | undefined> }>;
  app.get('/api/finance/chargeLines', async (request: Listing) => ok(await listLines(ctx, request)));
  app.get('/api/finance/chargeLines/export.xlsx', async (request: Listing, reply) => {
    const { buffer, fileName } = await exportLines(ctx, request);
    return sendWorkbook(reply, buffer, fileName);
  });
  app.get('/api/finance/chargeTotals', async (request: Listing) => ok(await hospitalTotals(ctx, request)));
  app.post('/api/finance/priceRecalculation/:id/run', async (request: FastifyRequest<{ Params: { id: string } }>) =>
    ok(present(await runRecalculation(ctx, request))),
  );
}
