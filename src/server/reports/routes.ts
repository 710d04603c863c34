import type { FastifyInstance } from 'fastify';
import { appendLog } from '../kernel/audit/log.js';
import type { Kernel } from '../kernel/context.js';
import { notFound, ok } from '../kernel/http/envelope.js';
import { callerOf } from '../kernel/http/request.js';
import { refuse } from '../kernel/resources/commands.js';
import { sendPdf } from '../kernel/resources/routes.js';
import { issueReport, PDF, REPORT } from './issue.js';
import { labNow } from '../kernel/labConfig/timeZone.js';

const NOT_INVALIDATED = {
  'zh-CN': '只有已作废且尚未更正的报告才能重新发布',
  'en-US': 'Only an invalidated report not yet corrected can be reissued',
};
const PATHOLOGY = {
  'zh-CN': '病理报告由诊断修正后复核签发更正，不能在此重新发布',
  'en-US': 'A pathology report is corrected by amending its diagnosis and signing it out again, not reissued here',
};
const NO_FILE = { 'zh-CN': '该报告没有系统生成的报告文件', 'en-US': 'This report has no file issued by the system' };

/** Reports' own calls: the PDF as issued (each view logged), and the corrected reissue of an invalidated report. */
export async function reportRoutes(app: FastifyInstance, kernel: Kernel) {
  const idOf = (params: { id: string }) => Number(params.id) || 0;

  app.get<{ Params: { id: string } }>('/api/reports/:id/pdf', async (request, reply) => {
    const caller = callerOf(request);
    const report = await kernel.resources.get(caller, REPORT, idOf(request.params));
    const file = await kernel.files.get(kernel.db, REPORT, report.orgId as number, report.id, PDF);
    if (!file) refuse(caller.locale, NO_FILE);
    await kernel.db.transaction(async (tx) => {
      await appendLog(tx, caller.actor, { resource: REPORT, recordId: report.id, action: 'reportView', ip: caller.ip });
      const event = { resource: REPORT, orgId: report.orgId as number, recordId: report.id, kind: 'print' as const };
      await kernel.events.append(tx, { ...event, name: 'view', actor: caller.actor, at: kernel.now() });
    });
    return sendPdf(reply, file.content, `${String(report.reportNo)}_v${String(report.reportVersion ?? 1)}.pdf`);
  });

  app.post<{ Params: { id: string } }>('/api/reports/:id/reissue', async (request) => {
    const caller = callerOf(request);
    // Permission to change reports, as the screen's invalidate asks; then the report must be the caller's to see.
    kernel.resources.screenFor(caller, REPORT, 'update');
    await kernel.resources.get(caller, REPORT, idOf(request.params));
    const id = await kernel.db.transaction(async (tx) => {
      const previous = await kernel.records.lock(tx, REPORT, caller.actor.orgId, idOf(request.params));
      if (!previous || previous.data.status !== 'invalidated' || previous.data.replacedBy)
        refuse(caller.locale, NOT_INVALIDATED);
      if (previous.data.pathologyNo) refuse(caller.locale, PATHOLOGY);
      const [specimen] = await kernel.records.find(tx, 'specimen', caller.actor.orgId, {
        barcode: [String(previous.data.barcode)],
      });
      if (!specimen) throw notFound();
      const next = await issueReport(kernel, tx, caller, specimen, previous);
      const replacedBy = `${String(previous.data.reportNo)} v${Number(previous.data.reportVersion ?? 1) + 1}`;
      await kernel.records.update(tx, REPORT, previous, { ...previous.data, replacedBy }, caller.actor.id);
      return next;
    });
    return ok({ ...(await kernel.resources.get(caller, REPORT, id)), issuedAt: labNow(kernel, caller.actor) });
  });
}
