import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Marks the generator's own calls, so that only people's requests hold it back. */
export const GENERATOR_HEADER = 'x-lims-demo-month';

const QUIET_MS = 40;
const LONGEST_WAIT_MS = 2_000;
const POLL_MS = 10;

/**
 * The demo month made in the background gives way to the people using the app: before each of its
 * calls it waits until no request of theirs is in flight and none ended in the last moment (a page
 * asks several things in a row). On the embedded database every call of the generator would otherwise
 * queue people's requests behind its statements. A busy lab slows the month down without stopping
 * it: no call waits longer than LONGEST_WAIT_MS.
 */
export class PeopleFirst {
  private inFlight = 0;
  private lastEnded = 0;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Counts people's requests; to be called before the app starts listening (Fastify hooks). */
  watch(app: FastifyInstance): this {
    app.addHook('onRequest', (request, reply, done) => {
      if (this.counts(request)) {
        this.inFlight++;
        // 'close' comes once for every response, sent or cut off by the browser going away.
        reply.raw.once('close', () => {
          this.inFlight--;
          this.lastEnded = this.now();
        });
      }
      done();
    });
    return this;
  }

  /** A push socket stays open for the whole visit: it is a person present, not a request to wait for. */
  private counts(request: FastifyRequest): boolean {
    return request.headers[GENERATOR_HEADER] === undefined && request.headers.upgrade === undefined;
  }

  /** Whether a person is being answered, or was a moment ago. */
  get busy(): boolean {
    return this.inFlight > 0 || this.now() - this.lastEnded < QUIET_MS;
  }

  /** Resolves when people are not being answered, or after LONGEST_WAIT_MS. */
  readonly turn = async (): Promise<void> => {
    const started = this.now();
    while (this.busy && this.now() - started < LONGEST_WAIT_MS) await this.sleep(POLL_MS);
  };
}
