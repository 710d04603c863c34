// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { GENERATOR_HEADER, PeopleFirst } from '../../src/server/demo/peopleFirst';

/** An app whose /slow answers when the test says so, watched by PeopleFirst. */
async function appWithSlowRoute(people: PeopleFirst) {
  const app = Fastify();
  people.watch(app);
  const answers: (() => void)[] = [];
  app.get('/slow', () => new Promise<string>((resolve) => answers.push(() => resolve('done'))));
  app.get('/quick', async () => 'done');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const answered = async () => {
    while (answers.length === 0) await new Promise((r) => setTimeout(r, 5));
    return answers.shift()!;
  };
  return { app, url, answered };
}

/** Whether `promise` has settled after the event loop has had a few turns. */
async function settled(promise: Promise<unknown>, ms = 100): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((r) => setTimeout(r, ms));
  return done;
}

describe('the demo month gives way to people (PeopleFirst)', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("waits while a person's request is being answered, and goes on once it is", async () => {
    const people = new PeopleFirst();
    const served = await appWithSlowRoute(people);
    app = served.app;
    const asked = fetch(`${served.url}/slow`);
    const answer = await served.answered();
    expect(people.busy).toBe(true);
    const turn = people.turn();
    expect(await settled(turn)).toBe(false);
    answer();
    await asked;
    expect(await settled(turn)).toBe(true);
    expect(people.busy).toBe(false);
  });

  it("does not wait for its own calls, nor for a person's page that merely stays open", async () => {
    const people = new PeopleFirst();
    const served = await appWithSlowRoute(people);
    app = served.app;
    const own = fetch(`${served.url}/slow`, { headers: { [GENERATOR_HEADER]: '1' } });
    const answer = await served.answered();
    expect(people.busy).toBe(false);
    expect(await settled(people.turn(), 20)).toBe(true);
    answer();
    await own;
    // A request announcing an upgrade (a push socket) is a presence, not a request to wait for.
    await app.inject({ method: 'GET', url: '/quick', headers: { connection: 'upgrade', upgrade: 'websocket' } });
    expect(people.busy).toBe(false);
  });

  it('never waits longer than two seconds, however busy the lab', async () => {
    let now = 0;
    const people = new PeopleFirst(
      () => now,
      async (ms) => {
        now += ms;
      },
    );
    const served = await appWithSlowRoute(people);
    app = served.app;
    const asked = fetch(`${served.url}/slow`);
    const answer = await served.answered();
    await people.turn();
    expect(now).toBeGreaterThanOrEqual(2_000);
    expect(now).toBeLessThan(2_100);
    expect(people.busy).toBe(true);
    answer();
    await asked;
  });
});
