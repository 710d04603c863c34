import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { deployXml, modelXml } from '../support/workflow';

/**
 * Issue 20, crash safety: the server process is killed (SIGKILL, as a power cut or the OOM killer
 * would) while clients write records and complete workflow tasks, then started again on the same data
 * (PGlite directory, or the PostgreSQL database of TEST_DATABASE_URL). Every write that was answered
 * 200 is there; every workflow instance waits at exactly one task and goes on; the operation log's
 * chain still verifies, so no write is half in the log. The figures are printed.
 */
interface Task {
  id: string;
  instanceId: string;
  elementId: string;
}

const CLIENTS = 8;
const INSTANCES = 80;
/** The load is bounded: the kill comes once this many writes are acknowledged (or after 15 s). */
const KILL_AFTER = 120;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`kill -9 under write load (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('keeps every acknowledged record and task completion, and the instances go on', async () => {
    let token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    let admin = api(server.url, token);
    const key = 'crash_flow';
    const xml = modelXml(
      key,
      '断电测试',
      [
        { id: 'start', kind: 'startEvent' },
        { id: 'first', kind: 'userTask', name: '第一步' },
        { id: 'second', kind: 'userTask', name: '第二步' },
        { id: 'end', kind: 'endEvent' },
      ],
      [
        { id: 'a', from: 'start', to: 'first' },
        { id: 'b', from: 'first', to: 'second' },
        { id: 'c', from: 'second', to: 'end' },
      ],
    );
    await deployXml(server.url, token, admin, key, xml, 4);
    for (let i = 0; i < INSTANCES; i++) {
      const started = await admin.post('/api/workflow/process/start', { modelKey: key, businessKey: `CRASH-${i}` });
      expect(started.body.resultCode, started.body.resultMessage).toBe(200);
    }
    const tasks = (await admin.get<Task[]>(`/api/workflow/task/todo?processKey=${key}`)).body.resultObject;
    expect(tasks).toHaveLength(INSTANCES);

    // Half the clients write specimen types, half complete tasks; a write counts once its 200 arrives.
    const ackedRecords: string[] = [];
    const ackedCompletions = new Set<string>();
    let sent = 0;
    let stop = false;
    const queue = [...tasks];
    const recordWriter = async (client: number) => {
      for (let n = 0; !stop; n++) {
        const code = `K${client}-${n}`;
        sent++;
        const res = await admin
          .post('/api/resources/specimenType', { code, name: `断电${code}`, category: 'blood' })
          .catch(() => undefined);
        if (!res) return;
        if (res.status === 200) ackedRecords.push(code);
      }
    };
    const completer = async () => {
      for (let task = queue.shift(); task && !stop; task = queue.shift()) {
        sent++;
        const res = await admin.post(`/api/workflow/task/${task.id}/complete`, {}).catch(() => undefined);
        if (!res) return;
        if (res.status === 200) ackedCompletions.add(task.instanceId);
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, i) => (i % 2 === 0 ? recordWriter(i) : completer())));
    const acked = () => ackedRecords.length + ackedCompletions.size;
    const deadline = Date.now() + 15_000;
    while (acked() < KILL_AFTER && Date.now() < deadline) await sleep(5);
    await server.kill();
    stop = true;
    await load;
    expect(ackedRecords.length).toBeGreaterThan(0);
    expect(ackedCompletions.size).toBeGreaterThan(0);

    server = await server.restart();
    token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    admin = api(server.url, token);

    const stored = await admin.get<{ records: { code: string }[] }>('/api/resources/specimenType?code=K&size=1000');
    const codes = new Set(stored.body.resultObject.records.map((r) => r.code));
    const lostRecords = ackedRecords.filter((c) => !codes.has(c));

    const waiting = (await admin.get<Task[]>(`/api/workflow/task/todo?processKey=${key}`)).body.resultObject;
    const at = new Map(waiting.map((t) => [t.instanceId, t.elementId]));
    const lostCompletions = [...ackedCompletions].filter((id) => at.get(id) !== 'second');
    console.log(
      `crash safety (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): ${sent} writes sent, ` +
        `${ackedRecords.length} records and ${ackedCompletions.size} task completions acknowledged before the kill, ` +
        `${lostRecords.length + lostCompletions.length} lost`,
    );
    expect(lostRecords).toEqual([]);
    expect(lostCompletions).toEqual([]);
    // Nothing half-done: each instance waits at exactly one task, and the log's chain holds.
    expect(waiting).toHaveLength(INSTANCES);
    expect(new Set(waiting.map((t) => t.instanceId)).size).toBe(INSTANCES);
    const chain = await admin.get<{ broken?: unknown; entries: number }>('/api/log/verifyChain');
    expect(chain.body.resultObject.broken).toBeUndefined();

    // The instances go on: a task left at the first step and one at the second complete now.
    for (const element of ['first', 'second']) {
      const task = waiting.find((t) => t.elementId === element);
      if (!task) continue;
      const res = await admin.post(`/api/workflow/task/${task.id}/complete`, {});
      expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    }
  }, 180_000);
});
