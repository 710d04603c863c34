import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../shared/i18n/messages.js';
import { screenAllows } from '../../shared/screens/access.js';
import type { ScreenSchema } from '../../shared/screens/fields.js';
import type { Kernel } from '../kernel/context.js';
import { screenOf } from '../kernel/resources/commands.js';
import { badRequest, notFound, ok, okMessage } from '../kernel/http/envelope.js';
import { actorOf, callerOf, intParam } from '../kernel/http/request.js';
import { appendLog } from '../kernel/audit/log.js';
import { present } from '../kernel/resources/records.js';
import { getOrganization } from '../kernel/identity/organizations.js';
import { listUsers } from '../kernel/identity/accounts.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import { splitBarcodes } from './barcodes.js';
import { addressedTo, confirmHandovers, readReceipt } from './confirm.js';
import { handoverWorkbook, loadSet, slipPages, summaryPage, type DocumentContext } from './documents.js';
import { specimenFiles, type FileKind } from './files.js';
import { renderPdf } from './pdf.js';
import { checkReceiver } from './receiver.js';
import { registerExport } from './exports.js';
import { moveSpecimens } from './specimens.js';
import { refuseClosed } from './rules.js';
import {
  HANDOVER,
  handoversByIds,
  LINE,
  linesOf,
  lockHandovers,
  stamp,
  type Handover,
  type HandoverLine,
} from './store.js';
import { slipTemplate, type SlipTemplate } from './template.js';
import { zoneOf } from '../kernel/labConfig/timeZone.js';

type Input = Record<string, unknown>;

/** The spec's calls take their parameters in the query; a POST may send them (and the password) in the body instead. */
const inputOf = (request: FastifyRequest): Input => ({
  ...(request.query as Input | undefined),
  ...(typeof request.body === 'object' && request.body !== null && !Buffer.isBuffer(request.body)
    ? (request.body as Input)
    : {}),
});

const flag = (value: unknown, fallback: boolean) =>
  value === undefined || value === ''
    ? fallback
    : value === true || value === 1 || ['true', '1', 'yes'].includes(String(value).toLowerCase());

function recordIdOf(input: Input): number {
  const id = intParam(input.recordId ?? input.id, 0);
  if (!id) throw badRequest('handover.recordId.required');
  return id;
}

/** Several handovers: ids / recordIds as a list or as comma-separated text. */
function recordIdsOf(input: Input): number[] {
  const raw = input.recordIds ?? input.ids ?? input.recordId;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : raw === undefined ? [] : [raw];
  const ids = [...new Set(list.map((v) => intParam(v, 0)).filter((n) => n > 0))];
  if (ids.length === 0 || ids.length > 500) throw badRequest('handover.recordIds.required');
  return ids;
}

/** A file answer: its type and the name the browser saves it under. */
function sendFile(reply: FastifyReply, body: Buffer, type: 'pdf' | 'xlsx', name: string) {
  const mime = type === 'pdf' ? 'application/pdf' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  return reply
    .header('Content-Type', mime)
    .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${name}.${type}`)}`)
    .send(body);
}

export async function handoverRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db, records } = ctx;

  /** The handover screen when the caller's roles allow the action, with its line screen. */
  const access = (request: FastifyRequest, action: 'read' | 'update' | 'export') => {
    const { screen, actor } = screenOf(ctx, request, HANDOVER, action);
    return { screen, actor, lineScreen: records.screen(LINE) };
  };

  const documentContext = async (
    request: FastifyRequest,
    screen: ScreenSchema,
    lineScreen: ScreenSchema,
    actor: AuthUser,
  ): Promise<DocumentContext> => ({
    screen,
    lineScreen,
    locale: request.locale,
    labName: (await getOrganization(db, actor.orgId))?.name ?? '',
  });

  /** One handover of the caller's lab, checked against the group the caller names. */
  const handoverOf = async (
    request: FastifyRequest,
    screen: ScreenSchema,
    actor: AuthUser,
    input: Input,
  ): Promise<Handover> => {
    const record = await records.get(db, HANDOVER, actor.orgId, recordIdOf(input));
    if (!record) throw notFound();
    const group = typeof input.proGroupName === 'string' ? input.proGroupName.trim() : '';
    if (group && !addressedTo(screen, record, group))
      throw badRequest('handover.group.mismatch', { handoverNo: String(record.data.handoverNo), group });
    return record;
  };

  /** The slips of some handovers as a PDF, in the lab's template. */
  const slipsPdf = async (
    request: FastifyRequest,
    doc: DocumentContext,
    actor: AuthUser,
    handovers: Handover[],
    template: SlipTemplate,
  ) => {
    const set = await loadSet(records, db, doc, actor.orgId, handovers);
    const numbers = handovers.map((r) => String(r.data.handoverNo)).join(', ');
    const title = `${template.title ?? t('handover.slip.title', request.locale)} ${numbers}`;
    return renderPdf(slipPages(doc, set, template), {
      printedAt: `${t('handover.slip.printedAt', request.locale)} ${stamp(ctx.now(), zoneOf(ctx, actorOf(request)))}`,
      documentTitle: title.slice(0, 200),
    });
  };
  const slipName = (request: FastifyRequest, handovers: Handover[]) =>
    `${t('handover.slip.title', request.locale)}_${handovers.length === 1 ? String(handovers[0]!.data.handoverNo) : `${handovers.length}`}`;

  /** Spec 7.2 confirmReceive: the receiver's own account and password confirm one handover; isPrint answers its slip. */
  app.post('/api/handover/confirmReceive', async (request, reply) => {
    const { screen, lineScreen, actor } = access(request, 'update');
    const input = inputOf(request);
    const id = recordIdOf(input);
    const receipt = readReceipt(input, request.locale);
    const print = flag(input.isPrint, false);
    const template = print ? await slipTemplate(db, actor.orgId, input.templateId) : undefined;
    const current = await handoverOf(request, screen, actor, input);
    refuseClosed(current, request.locale);
    const receiver = await checkReceiver(ctx, request, screen, input);
    const [row] = await confirmHandovers(ctx, request, { screen, lineScreen, ids: [id], receipt, receiver });
    if (!template) return okMessage(request, 'handover.received', present(row!), { n: 1 });
    const doc = await documentContext(request, screen, lineScreen, actor);
    return sendFile(reply, await slipsPdf(request, doc, actor, [row!], template), 'pdf', slipName(request, [row!]));
  });

  /** Spec 7.2 confirmReceiveAll: several handovers, one receiver, all or none; answers their slips (binary). */
  app.post('/api/handover/confirmReceiveAll', async (request, reply) => {
    const { screen, lineScreen, actor } = access(request, 'update');
    const input = inputOf(request);
    const ids = recordIdsOf(input);
    const receipt = readReceipt(input, request.locale);
    const template = await slipTemplate(db, actor.orgId, input.templateId);
    const handovers = await handoversByIds(records, db, actor.orgId, ids);
    if (handovers.length !== ids.length) throw notFound();
    for (const record of handovers) refuseClosed(record, request.locale);
    const receiver = await checkReceiver(ctx, request, screen, input);
    const rows = await confirmHandovers(ctx, request, { screen, lineScreen, ids, receipt, receiver });
    const doc = await documentContext(request, screen, lineScreen, actor);
    return sendFile(reply, await slipsPdf(request, doc, actor, rows, template), 'pdf', slipName(request, rows));
  });

  /** Spec 7.2 confirmNameAndPassword: checks the receiver before the confirmation (counts towards the lock like any try). */
  app.get('/api/handover/confirmNameAndPassword', async (request) => {
    const { screen } = access(request, 'update');
    const receiver = await checkReceiver(ctx, request, screen, inputOf(request));
    return okMessage(request, 'handover.receiverOk', {
      userAccount: receiver.userAccount,
      userName: receiver.userName,
    });
  });

  /**
   * Takes specimens off an open handover (spec 7.2 deleteAim, deleteCombination): its barcodes, count
   * and lines follow; at least one specimen stays (a handover not wanted at all is deleted).
   */
  const removeSpecimens = async (
    request: FastifyRequest,
    action: string,
    pick: (line: HandoverLine) => boolean,
    none: () => Error,
  ) => {
    const { actor } = access(request, 'update');
    const id = recordIdOf(inputOf(request));
    const row = await db.transaction(async (tx) => {
      await lockHandovers(records, tx, actor.orgId);
      const current = await records.get(tx, HANDOVER, actor.orgId, id);
      if (!current) throw notFound();
      refuseClosed(current, request.locale);
      const chosen = (await linesOf(records, tx, actor.orgId, [id])).filter(pick);
      if (chosen.length === 0) throw none();
      const gone = new Set(chosen.map((l) => String(l.data.barcode)));
      const barcodes = splitBarcodes(current.data.barcodes).filter((b) => !gone.has(b));
      if (barcodes.length === 0) throw badRequest('handover.lastSpecimen');
      const data = { ...current.data, barcodes: barcodes.join('\n'), specimenCount: barcodes.length };
      const updated = await records.update(tx, HANDOVER, current, data, actor.id);
      await records.removeIds(
        tx,
        LINE,
        actor.orgId,
        chosen.map((l) => l.id),
      );
      const step = { handoverNo: String(current.data.handoverNo) };
      await moveSpecimens(ctx, tx, callerOf(request), [...gone], 'recall', step);
      await appendLog(tx, actor, {
        resource: HANDOVER,
        recordId: id,
        action,
        before: current.data,
        after: updated.data,
        ip: request.ip,
      });
      return { updated, removed: chosen.length };
    });
    return okMessage(request, 'handover.removed', { record: present(row.updated), removed: row.removed });
  };
  app.post('/api/handover/deleteAim', (request) => {
    const input = inputOf(request);
    const aimId = intParam(input.aimId, 0);
    const barcode = typeof input.barcode === 'string' ? input.barcode.trim() : '';
    return removeSpecimens(
      request,
      'handoverDeleteAim',
      (l) => (aimId ? l.id === aimId : l.data.barcode === barcode),
      () => badRequest('handover.aim.notFound'),
    );
  });
  app.post('/api/handover/deleteCombination', (request) => {
    const combination = String(inputOf(request).combination ?? '').trim();
    return removeSpecimens(
      request,
      'handoverDeleteCombination',
      (l) => String(l.data.itemNames ?? '') === combination,
      () => badRequest('handover.combination.notFound', { combination: combination.slice(0, 100) }),
    );
  });

  /** Spec 7.2 getHandoverUserGroupList: the groups a handover goes to, and the lab's users who may receive one. */
  app.get('/api/handover/getHandoverUserGroupList', async (request) => {
    const { screen, actor } = access(request, 'read');
    const groups = (screen.fields.find((f) => f.key === 'toGroup')?.options ?? []).map((o) => ({
      value: o.value,
      label: o.label[request.locale],
    }));
    const { records } = await listUsers(db, { orgIds: [actor.orgId], page: 1, size: 1000 });
    const users = records
      .filter((u) => !u.locked && screenAllows(screen, 'update', u.roles))
      .map((u) => ({ id: u.id, userAccount: u.userAccount, userName: u.userName }));
    return ok({ groups, users });
  });

  /** Spec 7.2 getPageHandoverList: a page of the lab's handovers, with the list's filters and sort. */
  app.get<{ Querystring: Record<string, string> }>('/api/handover/getPageHandoverList', async (request) => {
    return ok(await ctx.resources.list(callerOf(request), HANDOVER, request.query));
  });

  /** Spec 7.2 getSpecimenAimList: the specimens (with their inspection purposes) of a handover, or of all, paged and filtered. */
  app.get<{ Querystring: Record<string, string> }>('/api/handover/getSpecimenAimList', async (request) => {
    const query = { ...request.query };
    if (query.recordId) query.handover = String(intParam(query.recordId, 0));
    return ok(await ctx.resources.list(callerOf(request), LINE, query));
  });

  /** Spec 7.2 getSpecimenCombinationList: a handover's specimens grouped by the purposes they travel for. */
  app.get('/api/handover/getSpecimenCombinationList', async (request) => {
    const { screen, actor } = access(request, 'read');
    const record = await handoverOf(request, screen, actor, inputOf(request));
    const groups = new Map<string, string[]>();
    for (const line of await linesOf(records, db, actor.orgId, [record.id])) {
      const key = String(line.data.itemNames ?? '');
      groups.set(key, [...(groups.get(key) ?? []), String(line.data.barcode)]);
    }
    return ok([...groups].map(([combination, barcodes]) => ({ combination, count: barcodes.length, barcodes })));
  });

  /** Spec 7.2 getSpecimenFileList: the images and files kept about a handover's specimens (without their content). */
  app.get('/api/handover/getSpecimenFileList', async (request) => {
    const { screen, actor } = access(request, 'read');
    const record = await handoverOf(request, screen, actor, inputOf(request));
    const barcodes = (await linesOf(records, db, actor.orgId, [record.id])).map((l) => String(l.data.barcode));
    return ok(
      await specimenFiles(ctx.screens.list(), records, db, actor, barcodes, {
        withData: false,
        locale: request.locale,
      }),
    );
  });

  /** Spec 7.2 exportHandleRecordPdf: the slip of one handover, in the lab's template. */
  app.get('/api/handover/exportHandleRecordPdf', async (request, reply) => {
    const { screen, lineScreen, actor } = access(request, 'read');
    const input = inputOf(request);
    const template = await slipTemplate(db, actor.orgId, input.templateId);
    const record = await handoverOf(request, screen, actor, input);
    const doc = await documentContext(request, screen, lineScreen, actor);
    const pdf = await slipsPdf(request, doc, actor, [record], template);
    await appendLog(db, actor, { resource: HANDOVER, recordId: record.id, action: 'handoverPrint', ip: request.ip });
    return sendFile(reply, pdf, 'pdf', slipName(request, [record]));
  });

  /** The handovers a summary or a full export covers: those named (recordIds), else the list's filters. */
  const chosenHandovers = async (request: FastifyRequest<{ Querystring: Record<string, string> }>, actor: AuthUser) => {
    const input = inputOf(request);
    if (input.recordIds !== undefined || input.recordId !== undefined)
      return handoversByIds(records, db, actor.orgId, recordIdsOf(input));
    // The list's filters and sort as the screen shows them, every row of them (up to ten thousand).
    const ids: number[] = [];
    for (let page = 1; page <= 10; page++) {
      const query = { ...request.query, page: String(page), size: '1000' };
      const listed = await ctx.resources.list(callerOf(request), HANDOVER, query);
      ids.push(...listed.records.map((r) => r.id));
      if (listed.records.length < 1000) break;
    }
    return handoversByIds(records, db, actor.orgId, ids);
  };

  /** Spec 7.2 exportSummaryRecordPdf: one table of the handovers chosen, landscape. */
  app.get<{ Querystring: Record<string, string> }>('/api/handover/exportSummaryRecordPdf', async (request, reply) => {
    const { screen, lineScreen, actor } = access(request, 'read');
    const handovers = await chosenHandovers(request, actor);
    const doc = await documentContext(request, screen, lineScreen, actor);
    const set = await loadSet(records, db, doc, actor.orgId, handovers);
    const title = t('handover.slip.summaryTitle', request.locale);
    const pdf = await renderPdf([summaryPage(doc, set)], {
      landscape: true,
      printedAt: `${t('handover.slip.printedAt', request.locale)} ${stamp(ctx.now(), zoneOf(ctx, actorOf(request)))}`,
      documentTitle: title,
    });
    await appendLog(db, actor, {
      resource: HANDOVER,
      recordId: null,
      action: 'handoverPrintSummary',
      after: { handovers: handovers.length },
      ip: request.ip,
    });
    await registerExport(ctx, callerOf(request), screen, handovers, 'pdf');
    return sendFile(reply, pdf, 'pdf', `${title}_${stamp(ctx.now(), zoneOf(ctx, actorOf(request))).slice(0, 10)}`);
  });

  /** Spec 7.2 getExcel: the specimens of one handover, one row each. */
  app.get('/api/handover/getExcel', async (request, reply) => {
    const { screen, lineScreen, actor } = access(request, 'export');
    const input = inputOf(request);
    const template = await slipTemplate(db, actor.orgId, input.templateId);
    const record = await handoverOf(request, screen, actor, input);
    const doc = await documentContext(request, screen, lineScreen, actor);
    const xlsx = await handoverWorkbook(doc, await loadSet(records, db, doc, actor.orgId, [record]), {
      withHandovers: false,
      columns: template.columns,
    });
    await appendLog(db, actor, { resource: HANDOVER, recordId: record.id, action: 'handoverExport', ip: request.ip });
    await registerExport(ctx, callerOf(request), screen, [record], 'xlsx');
    return sendFile(reply, xlsx, 'xlsx', slipName(request, [record]));
  });

  /** Spec 7.2 getExcelAll: the handovers of the list's filters (or those named) and all their specimens. */
  app.get<{ Querystring: Record<string, string> }>('/api/handover/getExcelAll', async (request, reply) => {
    const { screen, lineScreen, actor } = access(request, 'export');
    const handovers = await chosenHandovers(request, actor);
    const doc = await documentContext(request, screen, lineScreen, actor);
    const xlsx = await handoverWorkbook(doc, await loadSet(records, db, doc, actor.orgId, handovers), {
      withHandovers: true,
    });
    await appendLog(db, actor, {
      resource: HANDOVER,
      recordId: null,
      action: 'handoverExport',
      after: { handovers: handovers.length },
      ip: request.ip,
    });
    await registerExport(ctx, callerOf(request), screen, handovers, 'xlsx');
    return sendFile(
      reply,
      xlsx,
      'xlsx',
      `${screen.title[request.locale]}_${stamp(ctx.now(), zoneOf(ctx, actorOf(request))).slice(0, 10)}`,
    );
  });

  /** Spec 7.2 getImgs / getFiles: a specimen's images, or its other files, by barcode, with their content. */
  const filesOf = (kind: FileKind) => async (request: FastifyRequest) => {
    // Whatever keeps the files decides who reads them: specimenFiles looks only where the caller may read.
    const actor = actorOf(request);
    const input = inputOf(request);
    const barcodes = splitBarcodes(input.barcode ?? input.barcodes);
    if (barcodes.length === 0) throw badRequest('handover.barcodes.required');
    return ok(
      await specimenFiles(ctx.screens.list(), records, db, actor, barcodes.slice(0, 100), {
        kind,
        withData: true,
        locale: request.locale,
      }),
    );
  };
  app.get('/api/specimeEntry/examine/getImgs', filesOf('image'));
  app.get('/api/specimeEntry/v2/ins/getFiles', filesOf('file'));
}
