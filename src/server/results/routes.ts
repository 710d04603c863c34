import type { FastifyInstance } from 'fastify';
import type { Locale } from '../../shared/i18n/messages.js';
import type { Kernel } from '../kernel/context.js';
import { ok } from '../kernel/http/envelope.js';
import { callerOf } from '../kernel/http/request.js';
import type { Caller } from '../kernel/identity/actor.js';
import { confirmSignature } from '../kernel/identity/signature.js';
import { rowLabel } from '../kernel/resources/service.js';
import { readResultFile, resultsOfLines } from './importFile.js';
import { RESULT_MESSAGES } from './messages.js';

const RESULT = 'inspectionResult';
const MAX_ROWS = 2000;
const MAX_FILE_BYTES = 10 * 1024 * 1024;

const approveBody = {
  type: 'object',
  required: ['ids', 'password'],
  additionalProperties: false,
  properties: {
    ids: { type: 'array', minItems: 1, maxItems: MAX_ROWS, items: { type: 'integer', minimum: 1 } },
    password: { type: 'string', maxLength: 200 },
  },
} as const;

const worksheetBody = {
  type: 'object',
  required: ['rows'],
  additionalProperties: false,
  properties: {
    rows: {
      type: 'array',
      maxItems: MAX_ROWS,
      items: {
        type: 'object',
        required: ['id', 'result'],
        additionalProperties: false,
        properties: { id: { type: 'integer', minimum: 1 }, result: { type: 'string', maxLength: 60 } },
      },
    },
  },
} as const;

/** The meaning a signature gives its act, printed with the signer's name and time. */
const MEANING: Record<'firstReview' | 'audit', Record<Locale, string>> = {
  firstReview: RESULT_MESSAGES.review,
  audit: RESULT_MESSAGES.audit,
};

/** Results' own calls: the worksheet's save, and approval with an electronic signature. */
export async function resultRoutes(app: FastifyInstance, kernel: Kernel) {
  /** The worksheet's values: each row's result entered (the record step), all or none. */
  app.post<{ Body: { rows: { id: number; result: string }[] } }>(
    '/api/results/worksheet',
    { schema: { body: worksheetBody } },
    async (request) => {
      const caller = callerOf(request);
      const rows = request.body.rows.filter((r) => r.result.trim() !== '');
      // All or none: the first refusal is answered with its row and nothing is written. What the steps'
      // rules ask to run after (an auto-verification, a critical alert) runs once the whole batch is committed.
      if (rows.length > 0)
        await kernel.resources.transitionMany(
          caller,
          RESULT,
          rows.map((r) => r.id),
          'record',
          { inputs: new Map(rows.map((r) => [r.id, { result: r.result }])) },
        );
      return ok({ saved: rows.length });
    },
  );

  app.addContentTypeParser(
    ['application/octet-stream', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES },
    (_request, body, done) => done(null, body),
  );

  /**
   * A results file (Excel or CSV: barcode, item code, value, as an instrument or a spreadsheet gives
   * them) entered like the worksheet: its values through the record step in one batch, all or none, a
   * refusal naming its row. A result given twice takes the later line's value.
   */
  app.post<{ Querystring: { fileName?: string }; Body: Buffer }>('/api/results/import', async (request) => {
    const caller = callerOf(request);
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const lines = await readResultFile(bytes, request.query.fileName ?? '', caller.locale);
    await kernel.db.transaction(async (tx) => {
      const found = await resultsOfLines(kernel, tx, caller.actor.orgId, lines, caller.locale);
      const rowOf = new Map(found.map((line) => [line.id, line.row]));
      await kernel.resources.transitionMany(
        caller,
        RESULT,
        found.map((line) => line.id),
        'record',
        {
          tx,
          inputs: new Map(found.map((line) => [line.id, { result: line.result }])),
          refusalOf: (id, message) => rowLabel(rowOf.get(id)!, caller.locale, message),
        },
      );
    });
    return ok({ imported: lines.length });
  });

  /**
   * First review or audit of results, signed: the user's password again, the meaning recorded with the
   * signer's name and time on each result and in its history; all or none. One path per step, not a
   * parameter: screens name their commands' paths, which must exist as routes.
   */
  for (const step of ['firstReview', 'audit'] as const)
    app.post<{ Body: { ids: number[]; password: string } }>(
      `/api/results/approve/${step}`,
      { schema: { body: approveBody } },
      async (request) => {
        const caller: Caller = callerOf(request);
        const { ids, password } = request.body;
        const meaning = MEANING[step][caller.locale];
        await confirmSignature(kernel, caller, meaning, password);
        const signature = {
          meaning,
          signer: caller.actor.userName,
          account: caller.actor.userAccount,
          at: kernel.now().toISOString(),
        };
        await kernel.resources.transitionMany(caller, RESULT, ids, step, { system: true, details: { signature } });
        return ok({ approved: new Set(ids).size });
      },
    );
}
