import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

/**
 * Issue 20, shutdown with a deadline: on SIGTERM the server stops accepting, lets a request in flight
 * finish within the grace (LIMS_SHUTDOWN_GRACE_SECONDS), cuts a client holding a half-sent request
 * when the grace is over, and exits; the write it acknowledged is there after a restart.
 */
const GRACE_SECONDS = 2;
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ LIMS_SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) });
});
afterAll(() => server?.dispose());

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends on the socket until it closes it. */
const received = (socket: Socket) =>
  new Promise<string>((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });

describe('SIGTERM', () => {
  it('finishes a request in flight, cuts a half-sent one at the end of the grace, exits, and loses no acknowledged write', async () => {
    const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    const host = new URL(server.url).host;

    // A client that never finishes its headers.
    const stalled = await open(server.url);
    const stalledAnswer = received(stalled);
    stalled.write(`GET /api/user/me HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n`);

    // A write whose body is half sent when the signal comes, and finished during the grace.
    const body = JSON.stringify({ code: 'SHUTDOWN1', name: '停机前写入', category: 'blood' });
    const writer = await open(server.url);
    const writerAnswer = received(writer);
    writer.write(
      `POST /api/resources/specimenType HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n` +
        body.slice(0, 10),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    const started = Date.now();
    const stopped = server.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // No new connections once the signal is in.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    writer.write(body.slice(10));
    const answer = await writerAnswer;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('"resultCode":200');

    await stopped;
    const took = Date.now() - started;
    // The half-sent request held the process until the grace was over, and no longer.
    expect(took).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 200);
    expect(took).toBeLessThan(GRACE_SECONDS * 1000 + 3000);
    expect(await stalledAnswer).not.toMatch(/200 OK/);
    expect(server.output()).toContain('grace of 2 s over');

    server = await server.restart();
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const saved = await admin.get<{ records: { code: string }[] }>('/api/resources/specimenType?code=SHUTDOWN1');
    expect(saved.body.resultObject.records.map((r) => r.code)).toEqual(['SHUTDOWN1']);
  }, 180_000);
});
