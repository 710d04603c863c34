import type { FastifyInstance } from 'fastify';
import type { Locale } from '../../shared/i18n/messages.js';
import type { Kernel } from '../kernel/context.js';
import { ApiError, notFound, ok } from '../kernel/http/envelope.js';
import { appendLog } from '../kernel/audit/log.js';
import { refuse, screenOf } from '../kernel/resources/commands.js';
import { barcodeOf, lastSequenceOf, numberingOf, periodOf, repeatsNumbers } from './sequence.js';

const MESSAGES = {
  disabled: {
    'zh-CN': '该条码规则已停用，不能取号',
    'en-US': 'This barcode rule is disabled; no numbers can be issued',
  },
  repeats: {
    'zh-CN': '日期部分不包含重置周期，重置后条码会重复，请修改规则',
    'en-US': 'The date part does not carry the reset period, so numbers would repeat after a reset; change the rule',
  },
  exhausted: {
    'zh-CN': '本周期流水号已用尽，请加大流水号位数',
    'en-US': 'The sequence of this period is used up; widen the sequence',
  },
  count: { 'zh-CN': '取号数量须为1到1000之间的整数', 'en-US': 'The count must be a whole number from 1 to 1000' },
} satisfies Record<string, Record<Locale, string>>;

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
        refuse(request.locale, MESSAGES.count, 'count');
      const issued = await ctx.db.transaction(async (tx) => {
        const current = await ctx.records.lock(tx, 'barcodeRule', actor.orgId, Number(request.params.id) || 0);
        if (!current) throw notFound();
        const rule = numberingOf(current.data);
        if (!rule) throw new ApiError(500, 'common.serverError');
        if (current.data.enabled === false) refuse(request.locale, MESSAGES.disabled);
        if (repeatsNumbers(rule)) refuse(request.locale, MESSAGES.repeats, 'datePart');
        const now = ctx.now();
        const period = periodOf(rule.resetPeriod, now);
        const first = (current.data.currentPeriod === period ? (current.data.lastSequence ?? 0) : 0) + 1;
        const last = first + count - 1;
        if (last > lastSequenceOf(rule)) refuse(request.locale, MESSAGES.exhausted, 'sequenceWidth');
        const barcodes = Array.from({ length: count }, (_, i) => barcodeOf(rule, now, first + i));
        const data = { ...current.data, currentPeriod: period, lastSequence: last, lastBarcode: barcodes[count - 1] };
        const row = await ctx.records.update(tx, 'barcodeRule', current, data, actor.id);
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
