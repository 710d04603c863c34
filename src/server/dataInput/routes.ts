import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RecordValues } from '../../shared/screens/predicate.js';
import type { Kernel } from '../kernel/context.js';
import { badRequest, ok } from '../kernel/http/envelope.js';
import { acceptMultipart, formParts } from '../kernel/http/multipart.js';
import { callerOf } from '../kernel/http/request.js';
import { readSheet, type ImportRow } from '../kernel/resources/excel.js';
import { recordBatches, type Batch } from './batches.js';

/**
 * Data input (spec 7.4 imporItem, upLoadItemExcel): what a lab imports is a hospital's own codes (HIS
 * items, and its specimen types and departments) mapped to the lab's, into the import dictionary
 * (导入字典), so that the requests it imports later land on the right items. An import is all or nothing,
 * each problem named by its row, through the import dictionary's own checks (the generic resource's);
 * each accepted import is recorded as a batch of 数据导入管理.
 */
const TARGET = 'importDictionary';
const MAX_ROWS = 5000;
const MAX_SHEET_BYTES = 20 * 1024 * 1024;

/** What the whole import says once instead of on every row: the hospital, and the kind of code (item unless said). */
interface Defaults {
  hospital?: unknown;
  kind?: unknown;
}

function hospitalOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0) throw badRequest('common.invalid');
  return id;
}

export async function dataInputRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;

  async function importAll(request: FastifyRequest, rows: ImportRow[], defaults: Defaults, fileName?: string) {
    const caller = callerOf(request);
    if (rows.length === 0) throw badRequest('dataInput.empty');
    if (rows.length > MAX_ROWS) throw badRequest('dataInput.tooMany', { n: MAX_ROWS });
    const hospital = hospitalOf(defaults.hospital);
    const kind = defaults.kind === undefined || defaults.kind === '' ? 'item' : defaults.kind;
    const filled = rows.map(({ row, body }) => ({
      row,
      body: { ...(hospital !== undefined && { hospital }), kind, ...body },
    }));
    return db.transaction(async (tx) => {
      // The import dictionary's own checks, rules, permissions (its import roles and lab types) and log.
      const created = await ctx.resources.importRows(caller, TARGET, filled, tx);
      const perHospital = new Map<number, number>();
      for (const { data } of created)
        perHospital.set(Number(data.hospital), (perHospital.get(Number(data.hospital)) ?? 0) + 1);
      const batches: Batch[] = [...perHospital].map(([id, n]) => ({
        hospital: id,
        rows: n,
        ...(fileName && { fileName }),
      }));
      const batchNos = await recordBatches(tx, ctx.records, caller, batches, ctx.now());
      return { imported: created.length, batchNos };
    });
  }

  /** Body: the rows as records of the import dictionary, or { hospital?, kind?, items: [rows] }. */
  app.post<{ Body: unknown }>('/api/data/input/imporItem', async (request) => {
    const body = request.body;
    const wrapped =
      body && typeof body === 'object' && !Array.isArray(body) ? (body as Defaults & { items?: unknown }) : undefined;
    const list = Array.isArray(body) ? body : wrapped?.items;
    if (!Array.isArray(list) || list.some((row) => !row || typeof row !== 'object' || Array.isArray(row)))
      throw badRequest('common.invalid');
    const rows = (list as RecordValues[]).map((values, i) => ({ row: i + 1, body: values }));
    return ok(await importAll(request, rows, { hospital: wrapped?.hospital, kind: wrapped?.kind }));
  });

  app.addContentTypeParser(
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: MAX_SHEET_BYTES },
    (_request, body, done) => done(null, body),
  );
  acceptMultipart(app, MAX_SHEET_BYTES);

  /**
   * Body: the .xlsx itself (query hospital?, kind?, fileName?), or multipart with one file and those fields.
   * The sheet's first row names the columns, as the import dictionary's export writes them.
   */
  app.post<{ Querystring: Record<string, string | undefined> }>('/api/data/input/upLoadItemExcel', async (request) => {
    const caller = callerOf(request);
    // Whether the caller may import at all is asked before the file is read.
    const screen = ctx.resources.screenFor(caller, TARGET, 'import');
    const parts = await formParts(request);
    const file = parts
      ? parts.files[0]
      : Buffer.isBuffer(request.body)
        ? { fileName: request.query.fileName ?? '', bytes: request.body }
        : undefined;
    if (!file || file.bytes.length === 0) throw badRequest('dataInput.empty');
    const values: Defaults = { ...request.query, ...parts?.fields };
    const rows = await readSheet(db, screen, caller.actor.orgId, file.bytes, request.locale);
    return ok(await importAll(request, rows, values, file.fileName || undefined));
  });
}
