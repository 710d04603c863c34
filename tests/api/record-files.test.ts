import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/server/kernel/capability';
import { RecordFiles } from '../../src/server/kernel/files/recordFiles';
import { startInProcess, type InProcessApp } from '../support/in-process';

/**
 * Files drawn after their step is committed (kernel/files): a report's PDF is no longer drawn inside the
 * signature's transaction, so the embedded database is not held while it is drawn, nor the signature's
 * answer. What a lab relies on: the step answers without waiting for the drawing and the file is kept
 * soon after, a failed step leaves nothing to draw, a file not yet drawn is drawn when first asked for,
 * and one a stopped process left is drawn at the next start.
 */
const text = (input: unknown) => Promise.resolve(Buffer.from((input as { text: string }).text));
/** The drawing of "type SLOW" waits until the test lets it go. */
let letSlowGo: () => void = () => undefined;
const slowDrawing = new Promise<void>((resolve) => {
  letSlowGo = resolve;
});
const drawProbe = async (input: unknown) => {
  if ((input as { text: string }).text === 'type SLOW') await slowDrawing;
  return text(input);
};
// A capability that keeps a file with each specimen type it sees written, drawn after the commit.
const probe: Capability = {
  name: 'probeFiles',
  fileDrawers: { probeText: drawProbe },
  hooks: () => [
    {
      resource: 'specimenType',
      hooks: {
        async afterWrite({ tx, kernel, actor }, row) {
          const f = { resource: 'specimenType', orgId: row.orgId, recordId: row.id, kind: 'note', by: actor.id };
          await kernel.files.defer(tx, {
            ...f,
            contentType: 'text/plain',
            drawer: 'probeText',
            input: { text: `type ${String(row.data.code)}` },
          });
          if (row.data.code === 'FAILS') throw new Error('the step fails after keeping its file');
        },
      },
    },
  ],
};

let lims: InProcessApp;
let token = '';
beforeAll(async () => {
  lims = await startInProcess({}, [probe]);
  ({ token } = await lims.signIn());
});
afterAll(() => lims?.close());

const create = (code: string) =>
  lims.app.inject({
    method: 'POST',
    url: '/api/resources/specimenType',
    headers: { authorization: `Bearer ${token}` },
    payload: { code, name: `类型 ${code}`, category: 'blood' },
  });
const filesOf = (recordId: number) =>
  lims.db.query<{ content: Buffer }>(
    `select content from record_file where resource = 'specimenType' and record_id = $1 order by id`,
    [recordId],
  );
const pending = async () =>
  Number((await lims.db.query<{ n: string }>(`select count(*) as n from record_file_pending`))[0]!.n);
/** As a step leaves a file to draw when its process stops before drawing it. */
const leavePending = (recordId: number, words: string) =>
  lims.db.query(
    `insert into record_file_pending (resource, org_id, record_id, kind, content_type, drawer, input)
     values ('specimenType', 1, $1, 'note', 'text/plain', 'probeText', $2)`,
    [recordId, JSON.stringify({ text: words })],
  );

describe('a file drawn after its step', () => {
  it('is kept with the record soon after the step has answered, and nothing is left to draw', async () => {
    const res = await create('PF1');
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { resultObject: { id: number } }).resultObject.id;
    await expect.poll(pending).toBe(0);
    expect((await filesOf(id)).map((f) => f.content.toString())).toEqual(['type PF1']);
  });

  it('does not hold the answer to its step while it is drawn: the step answers, the file follows', async () => {
    // Were the answer to wait for the drawing, this call would not come back until the drawing is let go.
    const res = await create('SLOW');
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { resultObject: { id: number } }).resultObject.id;
    expect(await filesOf(id)).toEqual([]);
    // Steps committed meanwhile are drawn in a round after the one under way.
    const next = await create('PF2');
    const nextId = (next.json() as { resultObject: { id: number } }).resultObject.id;
    letSlowGo();
    await expect.poll(pending).toBe(0);
    expect((await filesOf(id)).map((f) => f.content.toString())).toEqual(['type SLOW']);
    expect((await filesOf(nextId)).map((f) => f.content.toString())).toEqual(['type PF2']);
  });

  it('is never drawn for a step that failed: its record and its file to draw are rolled back together', async () => {
    const res = await create('FAILS');
    expect(res.statusCode).toBe(500);
    expect(await pending()).toBe(0);
    const [row] = await lims.db.query(`select 1 from resource_record where data->>'code' = 'FAILS'`);
    expect(row).toBeUndefined();
  });

  it('is drawn when first asked for if still undrawn, once only when two ask at the same time', async () => {
    await leavePending(9001, 'drawn when asked');
    const files = new RecordFiles(lims.db);
    files.drawWith('probeText', text);
    const [a, b] = await Promise.all([
      files.get(lims.db, 'specimenType', 1, 9001, 'note'),
      files.get(lims.db, 'specimenType', 1, 9001, 'note'),
    ]);
    expect([a?.content.toString(), b?.content.toString()]).toEqual(['drawn when asked', 'drawn when asked']);
    expect(await filesOf(9001)).toHaveLength(1);
    expect(await pending()).toBe(0);
  });

  it("is drawn dated when its step made it, however long after: the drawer is told the step's time", async () => {
    await leavePending(9004, 'made on 2 January');
    await lims.db.query(
      `update record_file_pending set created_at = '2026-01-02T03:04:05Z' where record_id = 9004 returning id`,
    );
    const files = new RecordFiles(lims.db);
    const told: Date[] = [];
    files.drawWith('probeText', (input, madeAt) => {
      told.push(madeAt);
      return text(input);
    });
    expect(await files.drawPending()).toBe(1);
    expect(told.map((d) => d.toISOString())).toEqual(['2026-01-02T03:04:05.000Z']);
  });

  it('stays to be drawn when its drawing fails, with the failure told, and is drawn at the next try', async () => {
    await leavePending(9002, 'second try');
    const failing = new RecordFiles(lims.db);
    const told: unknown[] = [];
    failing.onDrawError = (e) => told.push(e);
    failing.drawWith('probeText', () => Promise.reject(new Error('font missing')));
    expect(await failing.drawPending()).toBe(0);
    expect(String(told[0])).toContain('font missing');
    expect(await pending()).toBe(1);

    const working = new RecordFiles(lims.db);
    working.drawWith('probeText', text);
    expect(await working.drawPending()).toBe(1);
    expect((await filesOf(9002)).map((f) => f.content.toString())).toEqual(['second try']);
  });

  it('left undrawn by a process that stopped, is drawn once the server answers again', async () => {
    await leavePending(9003, 'left by a stopped process');
    await lims.app.listen({ port: 0, host: '127.0.0.1' });
    await expect.poll(pending, { timeout: 10_000 }).toBe(0);
    expect((await filesOf(9003)).map((f) => f.content.toString())).toEqual(['left by a stopped process']);
  });
});
