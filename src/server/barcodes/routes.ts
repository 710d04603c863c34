import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../kernel/context.js';
import { notFound, ok } from '../kernel/http/envelope.js';
import { appendLog } from '../kernel/audit/log.js';
import { refuse, screenOf } from '../kernel/resources/commands.js';
import { issueNumbers } from './issued.js';

const COUNT = { 'zh-CN': '取号数量须为1到1000之间的整数', 'en-US': 'The count must be a whole number from 1 to 1000' };

const MAX_COUNT = 1000;

/**
 * Custom barcode rules (spec 2.2 barcode management): issuing the next numbers of a rule. The rule's
 * row is locked for the transaction, so two label printers never get the same number and no number
 * is skipped; the rule keeps the period and the last sequence issued (its read-only fields), and the
 * operation log keeps every range issued. Reprints print the same number and never come here.
 */
export async function barcodeRoutes(app: FastifyInstance, ctx: Kernel) {
  app.post<{ Params: { id: string }; Body: { count?: unknown } | undefined }>(
    '/api/barcodes/rules/:id/issue',
    async (request) => {
      // Taking numbers is daily work of everyone who prints labels: whoever may see the rule may issue.
      const { screen, actor } = screenOf(ctx, request, 'barcodeRule', 'read');
      const count = request.body?.count ?? 1;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_COUNT)
        refuse(request.locale, COUNT, 'count');
      const issued = await ctx.db.transaction(async (tx) => {
        const current = await ctx.records.lock(tx, 'barcodeRule', actor.orgId, Number(request.params.id) || 0);
        if (!current) throw notFound();
        const { barcodes, row } = await issueNumbers(ctx, tx, current, count, actor, request.locale);
        await appendLog(tx, actor, {
          resource: screen.resource.name,
          recordId: current.id,
          action: 'barcodeIssue',
          before: current.data,
          after: { ...row.data, issued: barcodes },
          ip: request.ip,
        });
        return {
          barcodes,
          first: barcodes[0],
          last: barcodes[count - 1],
          rule: { id: row.id, version: row.version, ...row.data },
        };
      });
      return ok(issued);
    },
  );
}
