import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, tokenFor } from '../support/client';
import { processXml } from '../support/bpmnModels';
import { DEMO_PASSWORD, startSecondProcess, startServer, type TestServer } from '../support/server';

/**
 * Timer and message start events, and signals thrown by one instance to the others (issue 22), with
 * processes written for these tests. A timer start waits per deployment in the database and the poller
 * (LIMS_TIMER_POLL_MS, short here) starts the instance: after a restart too, and once with two processes.
 */
const ENV = { LIMS_TIMER_POLL_MS: '100' };
const WAIT = { timeout: 20_000, interval: 100 };
let server: TestServer;
let token: string | undefined;

beforeAll(async () => {
  server = await startServer(ENV);
}, 60_000);
afterAll(() => server?.dispose());

const admin = async (locale = 'en-US') => {
  token ??= await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  return api(server.url, token, locale);
};

const flow = (id: string, from: string, to: string) =>
  `<sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"/>`;
const timer = (kind: string, text: string) => `<timerEventDefinition><${kind}>${text}</${kind}></timerEventDefinition>`;
/** A process whose start event carries the given definition, then one task. */
const startsWith = (key: string, definition: string, roots = '', task = 'Read slides') =>
  processXml(
    key,
    `<startEvent id="start" name="Every morning">${definition}</startEvent>${flow('f1', 'start', 'read')}
     <userTask id="read" name="${task}"/>${flow('f2', 'read', 'end')}<endEvent id="end"/>`,
    roots,
  );

/** A new model of the key, saved with the XML; answers its id. */
async function newModel(key: string): Promise<string> {
  const res = await (await admin()).post<{ id: string }>('/api/workflow/model/insert', { key, name: key });
  expect(res.body.resultCode, res.body.resultMessage).toBe(200);
  return res.body.resultObject.id;
}

/** Saves the XML to the model and deploys it; answers the deploy response. */
async function saveAndDeploy(modelId: string, xml: string, locale = 'en-US') {
  const saved = await fetch(`${server.url}/api/workflow/model/${modelId}/xml/save`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ bpmn_xml: xml, svg_xml: '' }),
  });
  expect(saved.status).toBe(200);
  return (await admin(locale)).get(`/api/workflow/model/deploy?modelId=${modelId}`);
}

async function deploy(xml: string): Promise<string> {
  const key = /<process id="([^"]+)"/.exec(xml)![1]!;
  const id = await newModel(key);
  const res = await saveAndDeploy(id, xml);
  expect(res.body.resultCode, res.body.resultMessage).toBe(200);
  return id;
}

interface Deployment {
  key: string;
  version: number;
  starts: { elementId: string; kind: string; name: string; dueAt: string | null; fired: number }[];
}
const deployments = async (key: string) =>
  (await (await admin()).get<Deployment[]>(`/api/workflow/deployments?key=${key}`)).body.resultObject;

interface Listed {
  id: string;
  status: string;
  startedBy: string | null;
  currentTasks: string[];
}
const instancesOf = async (key: string) =>
  (await (await admin()).get<{ records: Listed[] }>(`/api/workflow/process/list?processKey=${key}&size=100`)).body
    .resultObject.records;
const count = async (key: string) => (await instancesOf(key)).length;

describe('timer start events', () => {
  it('a duration starts one instance when due, by nobody, at its first task; the timer is then spent', async () => {
    await deploy(startsWith('st_once', timer('timeDuration', 'PT1S')));
    const [d] = await deployments('st_once');
    expect(d!.starts).toHaveLength(1);
    expect(d!.starts[0]).toMatchObject({ elementId: 'start', kind: 'timer', fired: 0 });
    expect(Date.parse(d!.starts[0]!.dueAt!)).toBeGreaterThan(Date.now() - 2000);
    expect(await count('st_once')).toBe(0);
    await expect.poll(() => count('st_once'), WAIT).toBe(1);
    const [started] = await instancesOf('st_once');
    expect(started).toMatchObject({ status: 'running', startedBy: null, currentTasks: ['Read slides'] });
    expect((await deployments('st_once'))[0]!.starts).toEqual([]);
  });

  it('a cycle R3 starts three instances, one per period, then stops', async () => {
    await deploy(startsWith('st_cycle', timer('timeCycle', 'R3/PT1S')));
    await expect.poll(async () => (await deployments('st_cycle'))[0]!.starts, WAIT).toEqual([]);
    expect(await count('st_cycle')).toBe(3);
  });

  it('a date starts the instance at that time', async () => {
    const at = new Date(Date.now() + 1500).toISOString();
    await deploy(startsWith('st_date', timer('timeDate', at)));
    expect(Date.parse((await deployments('st_date'))[0]!.starts[0]!.dueAt!)).toBe(Date.parse(at));
    await expect.poll(() => count('st_date'), WAIT).toBe(1);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));
  });

  it('a redeploy replaces the older version’s timer, and deleting the model removes it', async () => {
    const id = await deploy(startsWith('st_redeploy', timer('timeCycle', 'R/PT1H')));
    const res = await saveAndDeploy(id, startsWith('st_redeploy', timer('timeDuration', 'PT2H')));
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    const [v2, v1] = await deployments('st_redeploy');
    expect(v1!.starts).toEqual([]);
    expect(v2!.starts.map((s) => s.name)).toEqual(['timeDuration']);
    expect(Date.parse(v2!.starts[0]!.dueAt!)).toBeGreaterThan(Date.now() + 7_000_000);
    const deleted = await (await admin()).get(`/api/workflow/deleteModel?modelId=${id}`);
    expect(deleted.body.resultCode, deleted.body.resultMessage).toBe(200);
    expect((await deployments('st_redeploy')).flatMap((d) => d.starts)).toEqual([]);
  });

  it('a timer start that comes due while the server is down starts its instance after the restart, once', async () => {
    await deploy(startsWith('st_restart', timer('timeDuration', 'PT2S')));
    const due = Date.parse((await deployments('st_restart'))[0]!.starts[0]!.dueAt!);
    await server.stop();
    await expect.poll(() => Date.now() > due + 200, { timeout: 10_000, interval: 100 }).toBe(true);
    server = await server.restart();
    token = undefined;
    await expect.poll(() => count('st_restart'), WAIT).toBe(1);
    expect((await deployments('st_restart'))[0]!.starts).toEqual([]);
  }, 60_000);
});

describe('message start events', () => {
  const ordered = `<message id="orderMsg" name="ihcOrdered"/>`;

  it('a message of its name starts an instance with the business key and variables', async () => {
    await deploy(startsWith('st_message', '<messageEventDefinition messageRef="orderMsg"/>', ordered, 'Read ${slide}'));
    expect((await deployments('st_message'))[0]!.starts).toMatchObject([
      { elementId: 'start', kind: 'message', name: 'ihcOrdered', dueAt: null },
    ]);
    const res = await (
      await admin()
    ).post<{ processInstanceIds: string[] }>('/api/workflow/message', {
      name: 'ihcOrdered',
      businessKey: 'S-100',
      variables: { slide: 'S-100-A1' },
    });
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    expect(res.body.resultObject.processInstanceIds).toHaveLength(1);
    const [started] = await instancesOf('st_message');
    expect(started!.id).toBe(res.body.resultObject.processInstanceIds[0]);
    expect(started!.currentTasks).toEqual(['Read S-100-A1']);
    // It stays ready for the next message.
    expect((await deployments('st_message'))[0]!.starts).toHaveLength(1);
  });

  it('a message for one named instance starts nothing', async () => {
    const res = await (
      await admin()
    ).post('/api/workflow/message', { name: 'ihcOrdered', processInstanceId: 'no-such-instance' });
    expect(res.status).toBe(400);
    expect(await count('st_message')).toBe(1);
  });
});

describe('signals thrown by a process', () => {
  const released = `<signal id="relSig" name="runReleased"/>`;

  it('an intermediate signal throw reaches the catch events and boundary events of other instances', async () => {
    await deploy(
      processXml(
        'st_hold',
        `<startEvent id="start"/>${flow('f1', 'start', 'hold')}
         <intermediateCatchEvent id="hold"><signalEventDefinition signalRef="relSig"/></intermediateCatchEvent>
         ${flow('f2', 'hold', 'report')}<userTask id="report" name="Report"/>${flow('f3', 'report', 'end')}<endEvent id="end"/>`,
        released,
      ),
    );
    await deploy(
      processXml(
        'st_boundary',
        `<startEvent id="start"/>${flow('f1', 'start', 'wait')}<userTask id="wait" name="Wait for QC"/>${flow('f2', 'wait', 'end')}
         <boundaryEvent id="qcOk" attachedToRef="wait"><signalEventDefinition signalRef="relSig"/></boundaryEvent>
         ${flow('f3', 'qcOk', 'go')}<userTask id="go" name="Release results"/>${flow('f4', 'go', 'end2')}
         <endEvent id="end"/><endEvent id="end2"/>`,
        released,
      ),
    );
    await deploy(
      processXml(
        'st_qc',
        `<startEvent id="start"/>${flow('f1', 'start', 'qc')}<userTask id="qc" name="Accept QC run"/>
         ${flow('f2', 'qc', 'release')}<intermediateThrowEvent id="release"><signalEventDefinition signalRef="relSig"/></intermediateThrowEvent>
         ${flow('f3', 'release', 'end')}<endEvent id="end"/>`,
        released,
      ),
    );
    const a = await start('st_hold');
    const b = await start('st_boundary');
    const qc = await start('st_qc');
    expect(await tasksOf(a)).toEqual([]);
    const [task] = await openTasks(qc);
    expect((await (await admin()).post(`/api/workflow/task/${task!.id}/complete`, {})).body.resultCode).toBe(200);
    await expect.poll(() => tasksOf(a), WAIT).toEqual(['Report']);
    await expect.poll(() => tasksOf(b), WAIT).toEqual(['Release results']);
    const trace = (await (await admin()).get<{ history: { event: string }[] }>(`/api/workflow/process/${a}/trace`)).body
      .resultObject.history;
    expect(trace.filter((h) => h.event === 'signal')).toHaveLength(1);
  });

  it('a signal end event reaches them too', async () => {
    await deploy(
      processXml(
        'st_endSignal',
        `<startEvent id="start"/>${flow('f1', 'start', 'done')}
         <endEvent id="done"><signalEventDefinition signalRef="relSig"/></endEvent>`,
        released,
      ),
    );
    const a = await start('st_hold');
    await start('st_endSignal');
    await expect.poll(() => tasksOf(a), WAIT).toEqual(['Report']);
  });
});

const start = async (modelKey: string) => {
  const res = await (
    await admin()
  ).post<{ processInstanceId: string }>('/api/workflow/process/start', { modelKey, variables: {} });
  expect(res.body.resultCode, res.body.resultMessage).toBe(200);
  return res.body.resultObject.processInstanceId;
};
const openTasks = async (id: string) =>
  (await (await admin()).get<{ tasks: { id: string; name: string }[] }>(`/api/workflow/process/${id}`)).body
    .resultObject.tasks;
const tasksOf = async (id: string) => (await openTasks(id)).map((t) => t.name).sort();

// Two server processes need PostgreSQL (TEST_DATABASE_URL); PGlite serves one process only.
describe.skipIf(!process.env.TEST_DATABASE_URL)('two server processes on PostgreSQL', () => {
  it('start each due instance of a timer start exactly once', async () => {
    const second = await startSecondProcess(server, ENV);
    try {
      for (const key of ['st_two_a', 'st_two_b', 'st_two_c'])
        await deploy(startsWith(key, timer('timeCycle', 'R4/PT1S')));
      for (const key of ['st_two_a', 'st_two_b', 'st_two_c']) {
        await expect.poll(async () => (await deployments(key))[0]!.starts, WAIT).toEqual([]);
        expect(await count(key)).toBe(4);
      }
    } finally {
      await second.dispose();
    }
  }, 90_000);
});
