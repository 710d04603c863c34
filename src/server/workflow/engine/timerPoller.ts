import type { FastifyInstance } from 'fastify';
import type { WorkflowEngine } from './service.js';

/** How often due timers are looked for (ms): LIMS_TIMER_POLL_MS, 1 s unless set. */
export function pollInterval(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.LIMS_TIMER_POLL_MS);
  return Number.isFinite(ms) && ms >= 10 ? ms : 1000;
}

/**
 * Fires the timers of waiting instances from the database once the server answers: each round fires
 * every due timer (page after page), then waits the interval. Timers live in workflow_catch, so one
 * that came due while no server ran fires at the first round after the start. A stop waits for the
 * round under way, so no step is cut off by the database closing.
 */
export function pollTimersWhenListening(app: FastifyInstance, engine: WorkflowEngine, intervalMs = pollInterval()) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  engine.onTimerError = (due, error) =>
    app.log.error({ instance: due.instanceId, element: due.elementId, err: error }, 'workflow: a timer could not fire');
  const run = async () => {
    try {
      // A full page means more may be due: go on at once rather than a whole interval later.
      while (!stopped && (await engine.fireDueTimers(100)) === 100);
    } catch (error) {
      app.log.error({ err: error }, 'workflow: looking for due timers failed');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = run().finally(schedule);
    }, intervalMs);
  };
  app.addHook('onListen', async () => {
    round = run().finally(schedule);
  });
  app.addHook('preClose', async () => {
    stopped = true;
    clearTimeout(timer);
    await round;
  });
}
