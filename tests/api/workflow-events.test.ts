import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processXml, workflowClient } from '../support/bpmnModels';
import { startSecondProcess, startServer, type TestServer } from '../support/server';

/**
 * Timers, messages, signals, errors and event-based gateways (issue 22), with processes written for
 * these tests. Timers are kept in the database and fired by the poller (LIMS_TIMER_POLL_MS, short here),
 * so a timer fires after a restart and once with two server processes.
 */
const ENV = { LIMS_TIMER_POLL_MS: '100' };
let server: TestServer;
const wf = workflowClient(() => server);
const WAIT = { timeout: 15_000, interval: 100 };

beforeAll(async () => {
  server = await startServer(ENV);
}, 60_000);
afterAll(() => server?.dispose());

const flow = (id: string, from: string, to: string, condition?: string) =>
  condition
    ? `<sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"><conditionExpression xsi:type="tFormalExpression">${condition}</conditionExpression></sequenceFlow>`
    : `<sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"/>`;
const timer = (kind: 'timeDuration' | 'timeDate' | 'timeCycle', text: string) =>
  `<timerEventDefinition><${kind}>${text}</${kind}></timerEventDefinition>`;

/** Review with a timer on its border: interrupting sends the work to escalation, non-interrupting adds a reminder. */
const reviewWithTimer = (key: string, definition: string, interrupting = true) =>
  processXml(
    key,
    `<startEvent id="start"/>${flow('f1', 'start', 'review')}
     <userTask id="review" name="Review"/>${flow('f2', 'review', 'end')}
     <boundaryEvent id="late" attachedToRef="review" cancelActivity="${interrupting}">${definition}</boundaryEvent>
     ${flow('f3', 'late', 'escalate')}<userTask id="escalate" name="Escalate"/>${flow('f4', 'escalate', 'end2')}
     <endEvent id="end"/><endEvent id="end2"/>`,
  );

describe('timers', () => {
  it('an interrupting timer on a task closes the task when due and opens the escalation', async () => {
    await wf.deploy(reviewWithTimer('ev_interrupt', timer('timeDuration', 'PT1S')));
    const p = await wf.start('ev_interrupt');
    const first = await wf.instance(p);
    expect(first.tasks.map((t) => t.name)).toEqual(['Review']);
    expect(first.catches).toHaveLength(1);
    expect(first.catches[0]).toMatchObject({ elementId: 'late', kind: 'timer' });
    expect(Date.parse(first.catches[0]!.dueAt!)).toBeGreaterThan(Date.now() - 2000);
    await expect.poll(() => wf.open(p), WAIT).toEqual(['Escalate']);
    expect((await wf.instance(p)).catches).toEqual([]);
    const { history } = await wf.history(p);
    expect(history.filter((h) => h.event === 'timer').map((h) => h.elementId)).toEqual(['late']);
  });

  it('a task completed before its timer is due takes the timer away with it', async () => {
    await wf.deploy(reviewWithTimer('ev_beaten', timer('timeDuration', 'PT1H')));
    const p = await wf.start('ev_beaten');
    const [task] = (await wf.instance(p)).tasks;
    expect((await wf.complete(task!)).body.resultCode).toBe(200);
    const after = await wf.instance(p);
    expect(after.status).toBe('completed');
    expect(after.catches).toEqual([]);
  });

  it('a non-interrupting timer leaves the task open and adds the escalation beside it', async () => {
    await wf.deploy(reviewWithTimer('ev_remind', timer('timeDuration', 'PT1S'), false));
    const p = await wf.start('ev_remind');
    await expect.poll(() => wf.open(p), WAIT).toEqual(['Escalate', 'Review']);
    // It fired once: no further reminder is waiting.
    expect((await wf.instance(p)).catches).toEqual([]);
  });

  it('a non-interrupting cycle fires as many times as it says, then stops', async () => {
    await wf.deploy(reviewWithTimer('ev_cycle', timer('timeCycle', 'R2/PT1S'), false));
    const p = await wf.start('ev_cycle');
    const fired = async () => (await wf.history(p)).history.filter((h) => h.event === 'timer').length;
    await expect.poll(fired, WAIT).toBe(2);
    expect((await wf.instance(p)).catches).toEqual([]);
    // The engine runs one escalation at a time: the second opens once the first is done.
    expect(await wf.open(p)).toEqual(['Escalate', 'Review']);
    const escalation = (await wf.instance(p)).tasks.find((t) => t.name === 'Escalate')!;
    expect((await wf.complete(escalation)).body.resultCode).toBe(200);
    expect(await wf.open(p)).toEqual(['Escalate', 'Review']);
  });

  it('an intermediate timer waits, with its due time shown, before the next task', async () => {
    const xml = processXml(
      'ev_pause',
      `<startEvent id="start"/>${flow('f1', 'start', 'fix')}
       <intermediateCatchEvent id="fix">${timer('timeDuration', 'PT1S')}</intermediateCatchEvent>
       ${flow('f2', 'fix', 'read')}<userTask id="read" name="Read slide"/>${flow('f3', 'read', 'end')}<endEvent id="end"/>`,
    );
    await wf.deploy(xml);
    const p = await wf.start('ev_pause');
    expect(await wf.open(p)).toEqual([]);
    expect((await wf.history(p)).active).toEqual(['fix']);
    await expect.poll(() => wf.open(p), WAIT).toEqual(['Read slide']);
  });

  it('a timer date from a variable fires at that time', async () => {
    const xml = processXml(
      'ev_date',
      `<startEvent id="start"/>${flow('f1', 'start', 'at')}
       <intermediateCatchEvent id="at">${timer('timeDate', '${dueAt}')}</intermediateCatchEvent>
       ${flow('f2', 'at', 'read')}<userTask id="read" name="Read slide"/>${flow('f3', 'read', 'end')}<endEvent id="end"/>`,
    );
    await wf.deploy(xml);
    const dueAt = new Date(Date.now() + 1500).toISOString();
    const p = await wf.start('ev_date', { dueAt });
    const [c] = (await wf.instance(p)).catches;
    expect(Date.parse(c!.dueAt!)).toBe(Date.parse(dueAt));
    await expect.poll(() => wf.open(p), WAIT).toEqual(['Read slide']);
  });

  it('a timer start event holds the instance until it is due', async () => {
    const xml = processXml(
      'ev_startTimer',
      `<startEvent id="start">${timer('timeDuration', 'PT1S')}</startEvent>${flow('f1', 'start', 'read')}
       <userTask id="read" name="Read slide"/>${flow('f2', 'read', 'end')}<endEvent id="end"/>`,
    );
    await wf.deploy(xml);
    const p = await wf.start('ev_startTimer');
    expect((await wf.instance(p)).catches.map((c) => c.kind)).toEqual(['timer']);
    await expect.poll(() => wf.open(p), WAIT).toEqual(['Read slide']);
  });

  it('a timer that comes due while the server is down fires after the restart', async () => {
    await wf.deploy(reviewWithTimer('ev_restart', timer('timeDuration', 'PT2S')));
    const p = await wf.start('ev_restart');
    const due = Date.parse((await wf.instance(p)).catches[0]!.dueAt!);
    await server.stop();
    // The due time passes with no server running.
    await expect.poll(() => Date.now() > due + 200, { timeout: 10_000, interval: 100 }).toBe(true);
    server = await server.restart();
    wf.reset();
    await expect.poll(() => wf.open(p), WAIT).toEqual(['Escalate']);
    const { history } = await wf.history(p);
    expect(history.filter((h) => h.event === 'timer')).toHaveLength(1);
  }, 60_000);

  it('refuses a timer whose text is not ISO 8601, naming the element', async () => {
    const res = await wf.tryDeploy(reviewWithTimer('ev_badTimer', timer('timeDuration', '2 hours')));
    expect(res.body.resultCode).toBe(400);
    expect(res.body.resultMessage).toContain('late');
    expect(res.body.resultMessage).toContain('"2 hours" is not an ISO 8601 duration');
  });

  it('refuses a timer with no time in it', async () => {
    const res = await wf.tryDeploy(reviewWithTimer('ev_emptyTimer', '<timerEventDefinition/>'));
    expect(res.body.resultCode).toBe(400);
    expect(res.body.resultMessage).toContain('late: a timer needs exactly one of timeDuration, timeDate or timeCycle');
  });
});

const arrived = `<message id="arrivedMsg" name="specimenArrived"/>`;
const waitForArrival = (key: string) =>
  processXml(
    key,
    `<startEvent id="start"/>${flow('f1', 'start', 'arrival')}
     <intermediateCatchEvent id="arrival"><messageEventDefinition messageRef="arrivedMsg"/></intermediateCatchEvent>
     ${flow('f2', 'arrival', 'accept')}<userTask id="accept" name="Accept \${barcode}"/>${flow('f3', 'accept', 'end')}
     <endEvent id="end"/>`,
    arrived,
  );

describe('messages and signals', () => {
  it('a message catch waits until a message of its name reaches its business key, with variables', async () => {
    await wf.deploy(waitForArrival('ev_message'));
    const a = await wf.start('ev_message', {}, 'S-001');
    const b = await wf.start('ev_message', {}, 'S-002');
    expect((await wf.instance(a)).catches).toEqual([
      { elementId: 'arrival', kind: 'message', name: 'specimenArrived', dueAt: null },
    ]);
    const admin = await wf.admin();
    const res = await admin.post<{ processInstanceIds: string[] }>('/api/workflow/message', {
      name: 'specimenArrived',
      businessKey: 'S-002',
      variables: { barcode: 'S-002' },
    });
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    expect(res.body.resultObject.processInstanceIds).toEqual([b]);
    expect(await wf.open(b)).toEqual(['Accept S-002']);
    // The other specimen still waits.
    expect(await wf.open(a)).toEqual([]);
    expect((await wf.instance(a)).catches).toHaveLength(1);
  });

  it('a message nobody waits for is refused with its name, and changes nothing', async () => {
    const res = await (await wf.admin()).post('/api/workflow/message', { name: 'noSuchMessage' });
    expect(res.status).toBe(400);
    expect(res.body.resultMessage).toBe('No process instance is waiting for the message "noSuchMessage"');
  });

  it('a signal reaches every instance waiting for it', async () => {
    const xml = processXml(
      'ev_signal',
      `<startEvent id="start"/>${flow('f1', 'start', 'hold')}
       <intermediateCatchEvent id="hold"><signalEventDefinition signalRef="releaseSig"/></intermediateCatchEvent>
       ${flow('f2', 'hold', 'run')}<userTask id="run" name="Run batch"/>${flow('f3', 'run', 'end')}<endEvent id="end"/>`,
      `<signal id="releaseSig" name="batchReleased"/>`,
    );
    await wf.deploy(xml);
    const ps = [await wf.start('ev_signal'), await wf.start('ev_signal')];
    const res = await (
      await wf.admin()
    ).post<{ processInstanceIds: string[] }>('/api/workflow/signal', { name: 'batchReleased' });
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    expect(res.body.resultObject.processInstanceIds.sort()).toEqual([...ps].sort());
    for (const p of ps) expect(await wf.open(p)).toEqual(['Run batch']);
  });

  it('a message boundary event on a task interrupts it', async () => {
    const xml = processXml(
      'ev_msgBoundary',
      `<startEvent id="start"/>${flow('f1', 'start', 'grossing')}
       <userTask id="grossing" name="Grossing"/>${flow('f2', 'grossing', 'end')}
       <boundaryEvent id="cancelled" attachedToRef="grossing"><messageEventDefinition messageRef="cancelMsg"/></boundaryEvent>
       ${flow('f3', 'cancelled', 'archive')}<userTask id="archive" name="Archive"/>${flow('f4', 'archive', 'end2')}
       <endEvent id="end"/><endEvent id="end2"/>`,
      `<message id="cancelMsg" name="orderCancelled"/>`,
    );
    await wf.deploy(xml);
    const p = await wf.start('ev_msgBoundary', {}, 'S-010');
    const res = await (
      await wf.admin()
    ).post('/api/workflow/message', { name: 'orderCancelled', processInstanceId: p });
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    expect(await wf.open(p)).toEqual(['Archive']);
  });
});

describe('event-based gateway', () => {
  const race = processXml(
    'ev_race',
    `<startEvent id="start"/>${flow('f1', 'start', 'gw')}<eventBasedGateway id="gw"/>
     ${flow('f2', 'gw', 'arrival')}${flow('f3', 'gw', 'timeout')}
     <intermediateCatchEvent id="arrival"><messageEventDefinition messageRef="arrivedMsg"/></intermediateCatchEvent>
     <intermediateCatchEvent id="timeout">${timer('timeDuration', 'PT1S')}</intermediateCatchEvent>
     ${flow('f4', 'arrival', 'accept')}${flow('f5', 'timeout', 'chase')}
     <userTask id="accept" name="Accept"/><userTask id="chase" name="Chase the ward"/>
     ${flow('f6', 'accept', 'end')}${flow('f7', 'chase', 'end')}<endEvent id="end"/>`,
    arrived,
  );

  it('the message arriving first takes its branch and the timer is dropped', async () => {
    await wf.deploy(race);
    const p = await wf.start('ev_race');
    expect((await wf.instance(p)).catches.map((c) => c.kind).sort()).toEqual(['message', 'timer']);
    const res = await (
      await wf.admin()
    ).post('/api/workflow/message', { name: 'specimenArrived', processInstanceId: p });
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    expect(await wf.open(p)).toEqual(['Accept']);
    expect((await wf.instance(p)).catches).toEqual([]);
  });

  it('the timer coming first takes its branch and the message is no longer awaited', async () => {
    const p = await wf.start('ev_race');
    await expect.poll(() => wf.open(p), WAIT).toEqual(['Chase the ward']);
    const res = await (
      await wf.admin()
    ).post('/api/workflow/message', { name: 'specimenArrived', processInstanceId: p });
    expect(res.status).toBe(400);
  });
});

describe('errors', () => {
  const recollection = (key: string, boundary: string) =>
    processXml(
      key,
      `<startEvent id="start"/>${flow('f1', 'start', 'check')}
       <subProcess id="check" name="Check specimen">
         <startEvent id="cs"/>${flow('c1', 'cs', 'inspect')}<userTask id="inspect" name="Inspect"/>
         ${flow('c2', 'inspect', 'ok')}<exclusiveGateway id="ok" default="c4"/>
         ${flow('c3', 'ok', 'rejected', '${result == "unpass"}')}${flow('c4', 'ok', 'fine')}
         <endEvent id="rejected"><errorEventDefinition errorRef="rejectErr"/></endEvent><endEvent id="fine"/>
       </subProcess>
       ${flow('f2', 'check', 'test')}<userTask id="test" name="Test"/>${flow('f3', 'test', 'end')}
       ${boundary}
       ${flow('f4', 'onReject', 'recollect')}<userTask id="recollect" name="Recollect"/>${flow('f5', 'recollect', 'end2')}
       <endEvent id="end"/><endEvent id="end2"/>`,
      `<error id="rejectErr" errorCode="SPECIMEN_REJECTED"/>`,
    );

  it('an error end event in a sub-process goes to the recollection path its boundary names', async () => {
    await wf.deploy(
      recollection(
        'ev_error',
        `<boundaryEvent id="onReject" attachedToRef="check"><errorEventDefinition errorRef="rejectErr"/></boundaryEvent>`,
      ),
    );
    const rejected = await wf.start('ev_error');
    const [inspect] = (await wf.instance(rejected)).tasks;
    expect((await wf.complete(inspect!, { result: 'unpass' })).body.resultCode).toBe(200);
    expect(await wf.open(rejected)).toEqual(['Recollect']);

    const accepted = await wf.start('ev_error');
    const [again] = (await wf.instance(accepted)).tasks;
    expect((await wf.complete(again!, { result: 'pass' })).body.resultCode).toBe(200);
    expect(await wf.open(accepted)).toEqual(['Test']);
  });

  it('refuses an error end event that nothing catches', async () => {
    const res = await wf.tryDeploy(
      recollection(
        'ev_uncaught',
        `<boundaryEvent id="onReject" attachedToRef="check"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></boundaryEvent>`,
      ),
    );
    expect(res.body.resultCode).toBe(400);
    expect(res.body.resultMessage).toContain('rejected: no error boundary event of a sub-process around it catches');
  });

  it('refuses an error boundary event on a user task', async () => {
    const res = await wf.tryDeploy(
      reviewWithTimer('ev_errorOnTask', '<errorEventDefinition/>').replace(
        '<endEvent id="end"/>',
        '<endEvent id="end"/>',
      ),
    );
    expect(res.body.resultCode).toBe(400);
    expect(res.body.resultMessage).toContain('late: an error boundary event catches errors of a sub-process');
  });
});

describe('conditions the engine cannot evaluate', () => {
  const routed = (key: string, condition: string) =>
    processXml(
      key,
      `<startEvent id="start"/>${flow('f1', 'start', 'gw')}<exclusiveGateway id="gw" default="f3"/>
       ${condition}${flow('f3', 'gw', 'b')}
       <userTask id="a" name="A"/><userTask id="b" name="B"/>${flow('f4', 'a', 'end')}${flow('f5', 'b', 'end')}<endEvent id="end"/>`,
    );

  it('refuses a groovy condition with the flow named, instead of taking it as true', async () => {
    const res = await wf.tryDeploy(
      routed(
        'ev_groovy',
        `<sequenceFlow id="toA" sourceRef="gw" targetRef="a"><conditionExpression xsi:type="tFormalExpression" language="groovy">input == 1</conditionExpression></sequenceFlow>`,
      ),
    );
    expect(res.body.resultCode).toBe(400);
    expect(res.body.resultMessage).toContain('toA: the condition is written in "groovy"');
  });

  it('refuses a condition in plain text', async () => {
    const res = await wf.tryDeploy(routed('ev_plain', flow('toA', 'gw', 'a', 'input == 1')));
    expect(res.body.resultCode).toBe(400);
    expect(res.body.resultMessage).toContain('toA: the condition "input == 1" is not a ${...} expression');
  });

  it('still runs a ${...} condition', async () => {
    await wf.deploy(routed('ev_el', flow('toA', 'gw', 'a', '${input == 1}')));
    expect(await wf.open(await wf.start('ev_el', { input: 1 }))).toEqual(['A']);
    expect(await wf.open(await wf.start('ev_el', { input: 2 }))).toEqual(['B']);
  });
});

// Two server processes need PostgreSQL (TEST_DATABASE_URL); PGlite serves one process.
describe.skipIf(!process.env.TEST_DATABASE_URL)('two server processes', () => {
  it('fire each due timer exactly once', async () => {
    const second = await startSecondProcess(server, ENV);
    try {
      await wf.deploy(reviewWithTimer('ev_twice', timer('timeDuration', 'PT1S')));
      const ps: string[] = [];
      for (let i = 0; i < 12; i++) ps.push(await wf.start('ev_twice'));
      for (const p of ps) await expect.poll(() => wf.open(p), WAIT).toEqual(['Escalate']);
      for (const p of ps) expect((await wf.history(p)).history.filter((h) => h.event === 'timer')).toHaveLength(1);
    } finally {
      await second.dispose();
    }
  }, 90_000);
});

describe('manual and receive tasks', () => {
  it('are opened as tasks a person confirms, and the process goes on when they do', async () => {
    const xml = processXml(
      'ev_manual',
      `<startEvent id="start"/>${flow('f1', 'start', 'carry')}<manualTask id="carry" name="Carry the tray"/>
       ${flow('f2', 'carry', 'receive')}<receiveTask id="receive" name="Tray received"/>${flow('f3', 'receive', 'end')}<endEvent id="end"/>`,
    );
    await wf.deploy(xml);
    const p = await wf.start('ev_manual');
    const [carry] = (await wf.instance(p)).tasks;
    expect(carry).toMatchObject({ name: 'Carry the tray', kind: 'manual' });
    expect((await wf.complete(carry!)).body.resultCode).toBe(200);
    const [receive] = (await wf.instance(p)).tasks;
    expect(receive).toMatchObject({ name: 'Tray received', kind: 'receive' });
    expect((await wf.complete(receive!)).body.resultCode).toBe(200);
    expect((await wf.instance(p)).status).toBe('completed');
  });
});

describe('task administration and models from other tools', () => {
  const PASSWORD = 'Muppet#2026x';
  let histology = 0;
  const as = async (account: string) => {
    const { api, tokenFor } = await import('../support/client');
    return api(server.url, await tokenFor(server.url, account, PASSWORD), 'en-US');
  };
  beforeAll(async () => {
    const admin = await wf.admin();
    const role = await admin.post<{ id: number }>('/api/resources/role', { name: 'histology', code: 'editor' });
    expect(role.body.resultCode, role.body.resultMessage).toBe(200);
    histology = role.body.resultObject.id;
    for (const userAccount of ['kermit', 'fozzie']) {
      const res = await admin.post('/api/user', {
        userAccount,
        userName: userAccount,
        password: PASSWORD,
        roleIds: [histology],
      });
      expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    }
  });

  it('a task for an account that does not exist is deployed with a warning and can be reassigned, delegated and handed back', async () => {
    const xml = processXml(
      'ev_nobody',
      `<startEvent id="start"/>${flow('f1', 'start', 'sign')}<userTask id="sign" name="Sign" activiti:assignee="drbunsen"/>
       ${flow('f2', 'sign', 'file')}<userTask id="file" name="File"/>${flow('f3', 'file', 'end')}<endEvent id="end"/>`,
    );
    const deployed = await wf.tryDeploy(xml);
    expect(deployed.body.resultCode, deployed.body.resultMessage).toBe(200);
    expect((deployed.body.resultObject as { warnings: string[] }).warnings).toEqual([
      'sign (Sign): the assignee "drbunsen" has no account here, its tasks wait until reassigned',
    ]);
    const p = await wf.start('ev_nobody');
    const [sign] = (await wf.instance(p)).tasks;
    const admin = await wf.admin();
    const unknown = await admin.post(`/api/workflow/task/${sign!.id}/reassign`, { userAccount: 'nobody' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.resultMessage).toBe('There is no account "nobody" in this organisation');
    // Someone who neither owns the task nor administers may not move it.
    const kermit = await as('kermit');
    expect((await kermit.post(`/api/workflow/task/${sign!.id}/reassign`, { userAccount: 'kermit' })).status).toBe(403);

    const moved = await admin.post(`/api/workflow/task/${sign!.id}/reassign`, { userAccount: 'kermit' });
    expect(moved.body.resultCode, moved.body.resultMessage).toBe(200);
    const mine = (await kermit.get<{ id: string }[]>('/api/workflow/task/todo')).body.resultObject;
    expect(mine.map((t) => t.id)).toEqual([sign!.id]);

    // Kermit, now the owner, delegates; Fozzie's completion hands it back to Kermit, the process waits.
    expect(
      (await kermit.post(`/api/workflow/task/${sign!.id}/delegate`, { userAccount: 'fozzie' })).body.resultCode,
    ).toBe(200);
    const fozzie = await as('fozzie');
    expect((await kermit.post(`/api/workflow/task/${sign!.id}/complete`, {})).status).toBe(403);
    const resolved = await fozzie.post(`/api/workflow/task/${sign!.id}/complete`, {});
    expect(resolved.body.resultMessage).toBe('Done; the task is back with its owner');
    expect((await wf.instance(p)).tasks).toMatchObject([{ name: 'Sign', assignee: 'kermit', owner: null }]);
    expect((await kermit.post(`/api/workflow/task/${sign!.id}/complete`, {})).body.resultCode).toBe(200);
    expect(await wf.open(p)).toEqual(['File']);
    const events = (await wf.history(p)).history.filter((h) => h.elementId === 'sign').map((h) => h.event);
    expect(events).toEqual(['start', 'reassign', 'delegate', 'resolve', 'complete', 'end']);
  });

  it('a claimed task is released back to its position, or offered to another position', async () => {
    const xml = processXml(
      'ev_pool',
      `<startEvent id="start"/>${flow('f1', 'start', 'cut')}<userTask id="cut" name="Cut" activiti:candidateGroups="histology"/>
       ${flow('f2', 'cut', 'end')}<endEvent id="end"/>`,
    );
    await wf.deploy(xml);
    const p = await wf.start('ev_pool');
    const [cut] = (await wf.instance(p)).tasks;
    const kermit = await as('kermit');
    const fozzie = await as('fozzie');
    expect((await kermit.post(`/api/workflow/task/${cut!.id}/claim`)).body.resultCode).toBe(200);
    expect((await fozzie.get<unknown[]>('/api/workflow/task/todo?processKey=ev_pool')).body.resultObject).toEqual([]);
    expect((await fozzie.post(`/api/workflow/task/${cut!.id}/unclaim`)).status).toBe(403);
    expect((await kermit.post(`/api/workflow/task/${cut!.id}/unclaim`)).body.resultCode).toBe(200);
    expect((await fozzie.get<unknown[]>('/api/workflow/task/todo?processKey=ev_pool')).body.resultObject).toHaveLength(
      1,
    );
    const admin = await wf.admin();
    expect(
      (await admin.post(`/api/workflow/task/${cut!.id}/reassign`, { candidateGroup: 'pathologists' })).body.resultCode,
    ).toBe(200);
    expect((await fozzie.get<unknown[]>('/api/workflow/task/todo?processKey=ev_pool')).body.resultObject).toEqual([]);
    expect((await wf.instance(p)).tasks[0]!.candidateGroups).toEqual(['pathologists']);
  });

  it('reads Camunda assignees, standard potential owners and the initiator, and says what it left out', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="x">
  <process id="ev_camunda" isExecutable="true">
    <startEvent id="start" camunda:initiator="starter"/>${flow('f1', 'start', 'stain')}
    <userTask id="stain" name="Stain" camunda:assignee="kermit" camunda:asyncBefore="true"/>${flow('f2', 'stain', 'read')}
    <userTask id="read" name="Read"><potentialOwner><resourceAssignmentExpression><formalExpression>group(histology)</formalExpression></resourceAssignmentExpression></potentialOwner></userTask>
    ${flow('f3', 'read', 'report')}<userTask id="report" name="Report" camunda:assignee="\${starter}"/>${flow('f4', 'report', 'end')}
    <endEvent id="end"/>
  </process>
</definitions>`;
    const deployed = await wf.tryDeploy(xml);
    expect(deployed.body.resultCode, deployed.body.resultMessage).toBe(200);
    expect((deployed.body.resultObject as { warnings: string[] }).warnings).toEqual([
      "start: camunda:initiator read as Activiti's",
      "stain (Stain): camunda:assignee read as Activiti's",
      'stain (Stain): camunda:asyncBefore not run by this engine, left out',
      "read (Read): potentialOwner read as Activiti's",
      "report (Report): camunda:assignee read as Activiti's",
    ]);
    const p = await wf.start('ev_camunda');
    expect((await wf.instance(p)).tasks).toMatchObject([{ name: 'Stain', assignee: 'kermit' }]);
    const kermit = await as('kermit');
    const [stain] = (await wf.instance(p)).tasks;
    expect((await kermit.post(`/api/workflow/task/${stain!.id}/complete`, {})).body.resultCode).toBe(200);
    expect((await wf.instance(p)).tasks).toMatchObject([{ name: 'Read', candidateGroups: ['histology'] }]);
    const [read] = (await wf.instance(p)).tasks;
    expect((await (await as('fozzie')).post(`/api/workflow/task/${read!.id}/complete`, {})).body.resultCode).toBe(200);
    // The starting user (admin) is the report's assignee through ${starter}.
    expect((await wf.instance(p)).tasks).toMatchObject([{ name: 'Report', assignee: 'admin' }]);
  });

  it('refuses a process marked not executable, saying so', async () => {
    const xml = processXml(
      'ev_notExec',
      `<startEvent id="start"/>${flow('f1', 'start', 'end')}<endEvent id="end"/>`,
    ).replace('isExecutable="true"', 'isExecutable="false"');
    const res = await wf.tryDeploy(xml);
    expect(res.body.resultCode).toBe(400);
    expect(res.body.resultMessage).toContain('ev_notExec: the process is marked isExecutable="false"');
  });
});

describe('multi-instance', () => {
  it('a looping sub-process stops when its completion condition holds', async () => {
    const xml = processXml(
      'ev_subLoop',
      `<startEvent id="start"/>${flow('f1', 'start', 'sub')}
       <subProcess id="sub"><multiInstanceLoopCharacteristics isSequential="true"><loopCardinality>4</loopCardinality>
         <completionCondition>\${nrOfCompletedInstances == 3}</completionCondition></multiInstanceLoopCharacteristics>
         <startEvent id="ss"/>${flow('s1', 'ss', 'cut')}<userTask id="cut" name="Cut section"/>${flow('s2', 'cut', 'se')}<endEvent id="se"/>
       </subProcess>${flow('f2', 'sub', 'stain')}<userTask id="stain" name="Stain"/>${flow('f3', 'stain', 'end')}<endEvent id="end"/>`,
    );
    await wf.deploy(xml);
    const p = await wf.start('ev_subLoop');
    for (let i = 0; i < 3; i++) {
      const tasks = (await wf.instance(p)).tasks;
      expect(tasks.map((t) => t.name)).toEqual(['Cut section']);
      expect((await wf.complete(tasks[0]!)).body.resultCode).toBe(200);
    }
    expect(await wf.open(p)).toEqual(['Stain']);
  });

  it('the standard loopDataInputRef runs over the list variable it names', async () => {
    const xml = processXml(
      'ev_dataInput',
      `<startEvent id="start"/>${flow('f1', 'start', 'read')}
       <userTask id="read" name="Read" activiti:assignee="\${reader}"><multiInstanceLoopCharacteristics isSequential="false">
         <loopDataInputRef>readers</loopDataInputRef><inputDataItem name="reader"/></multiInstanceLoopCharacteristics></userTask>
       ${flow('f2', 'read', 'end')}<endEvent id="end"/>`,
    );
    await wf.deploy(xml);
    const p = await wf.start('ev_dataInput', { readers: ['admin', 'kermit'] });
    expect((await wf.instance(p)).tasks.map((t) => t.assignee).sort()).toEqual(['admin', 'kermit']);
  });
});

describe('rollback and timers', () => {
  it('a task sent back to runs its timer again in full, instead of firing the old one at once', async () => {
    const xml = processXml(
      'ev_rollbackTimer',
      `<startEvent id="start"/>${flow('f1', 'start', 'gross')}
       <userTask id="gross" name="Gross"/>${flow('f2', 'gross', 'review')}<userTask id="review" name="Review"/>${flow('f3', 'review', 'end')}
       <boundaryEvent id="late" attachedToRef="gross">${timer('timeDuration', 'PT3S')}</boundaryEvent>
       ${flow('f4', 'late', 'escalate')}<userTask id="escalate" name="Escalate"/>${flow('f5', 'escalate', 'end2')}
       <endEvent id="end"/><endEvent id="end2"/>`,
    );
    await wf.deploy(xml);
    const p = await wf.start('ev_rollbackTimer');
    const first = await wf.instance(p);
    const due = Date.parse(first.catches[0]!.dueAt!);
    expect((await wf.complete(first.tasks[0]!)).body.resultCode).toBe(200);
    expect(await wf.open(p)).toEqual(['Review']);
    // The first timer's due time passes while the specimen is at review.
    await expect.poll(() => Date.now() > due + 300, { timeout: 10_000, interval: 100 }).toBe(true);
    const [review] = (await wf.instance(p)).tasks;
    const back = await wf.complete(review!, { result: 'rollback_last' });
    expect(back.body.resultCode, back.body.resultMessage).toBe(200);
    const after = await wf.instance(p);
    expect(after.tasks.map((t) => t.name)).toEqual(['Gross']);
    expect(Date.parse(after.catches[0]!.dueAt!)).toBeGreaterThan(Date.now() + 1000);
    // It still fires, in its own time.
    await expect.poll(() => wf.open(p), WAIT).toEqual(['Escalate']);
  });
});
