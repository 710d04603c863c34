import type { FastifyInstance } from 'fastify';

/** Past the grace, what the closing steps after the HTTP server (push, database) may still take before a hard exit. */
const CLOSE_MARGIN_MS = 5_000;

/**
 * Stopping with a deadline (issue 20): on SIGTERM the server stops accepting connections at once,
 * idle keep-alive sockets are ended, and requests in flight get `graceSeconds` to finish. A socket
 * still open then (a client holding a half-sent request, a slow upload) is cut: its request was never
 * acknowledged, and a write it started rolls back with its transaction. Then `release` closes the rest
 * (push, database) and the process exits; should even that hang, it exits anyway, so that a deploy or
 * an orchestrator's stop never waits on a client.
 */
export function stopWithDeadline(
  app: FastifyInstance,
  graceSeconds: number,
  release: () => Promise<void>,
): (signal: string) => Promise<void> {
  let stopping = false;
  return async (signal) => {
    if (stopping) return;
    stopping = true;
    const graceMs = graceSeconds * 1000;
    app.log.info(`${signal}: no new connections; open requests have ${graceSeconds} s to finish`);
    setTimeout(() => {
      app.log.error(`${signal}: still not closed ${CLOSE_MARGIN_MS} ms after the grace; exiting`);
      process.exit(1);
    }, graceMs + CLOSE_MARGIN_MS).unref();
    const cut = setTimeout(() => {
      app.log.warn(`${signal}: grace of ${graceSeconds} s over; closing the sockets still open`);
      app.server.closeAllConnections();
    }, graceMs);
    cut.unref();
    try {
      // Stops listening, ends idle sockets, answers 503 to new requests on kept-alive ones, waits for the rest.
      await app.close();
    } finally {
      clearTimeout(cut);
    }
    await release();
    process.exit(0);
  };
}
