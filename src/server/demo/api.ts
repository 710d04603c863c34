import type { FastifyInstance } from 'fastify';
import { GENERATOR_HEADER } from './peopleFirst.js';

/**
 * A member of staff at the API, answered in process (the app's own routes, rules and checks, without a
 * socket): the generator does what people do, and is refused what they would be refused.
 */
export class DemoApiError extends Error {}

interface Envelope<T> {
  resultCode: number;
  resultMessage: string;
  resultObject: T;
}

/** Time spent per kind of call (method and path, ids and queries left out), for `demo-month --timing`. */
export const callTimes = new Map<string, { calls: number; ms: number }>();

const kindOf = (method: string, url: string) =>
  `${method} ${url.split('?')[0]!.replace(/\/(\d+|[0-9a-f-]{36})(?=\/|$)/g, '/:id')}`;

function timed(method: string, url: string, started: number) {
  const kind = kindOf(method, url);
  const entry = callTimes.get(kind) ?? { calls: 0, ms: 0 };
  entry.calls++;
  entry.ms += performance.now() - started;
  callTimes.set(kind, entry);
}

/** Where the generator's staff go to work: the app, and whose turn it is (people's first, in the background). */
export interface Workplace {
  app: FastifyInstance;
  /** Resolves when the generator may make its next call. */
  turn?: () => Promise<void>;
}

export class Staff {
  private token = '';

  constructor(
    private readonly workplace: Workplace,
    readonly account: string,
    private readonly password: string,
  ) {}

  /** The app answers the call in process, once it is the generator's turn (the wait is not timed). */
  private async inject(request: {
    method: 'GET' | 'POST' | 'PUT';
    url: string;
    headers: Record<string, string>;
    payload?: string;
  }) {
    await this.workplace.turn?.();
    const started = performance.now();
    const res = await this.workplace.app.inject({
      ...request,
      headers: { ...request.headers, [GENERATOR_HEADER]: '1' },
    });
    timed(request.method, request.url, started);
    return res;
  }

  async signIn(): Promise<this> {
    const res = await this.inject({
      method: 'POST',
      url: '/oauth/token?client_id=laboratory',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'password',
        scope: 'all',
        username: this.account,
        password: this.password,
      }).toString(),
    });
    if (res.statusCode !== 200) throw new DemoApiError(`${this.account} cannot sign in: ${res.body.slice(0, 200)}`);
    this.token = (res.json() as { access_token: string }).access_token;
    return this;
  }

  get = <T>(url: string) => this.call<T>('GET', url);
  post = <T>(url: string, body: unknown = {}) => this.call<T>('POST', url, body);
  put = <T>(url: string, body: unknown) => this.call<T>('PUT', url, body);

  /** A file the app prints (a PDF of labels): its bytes; a refusal is an error as for any call. */
  async file(url: string): Promise<Buffer> {
    const res = await this.inject({ method: 'GET', url, headers: { authorization: `Bearer ${this.token}` } });
    if (res.statusCode !== 200)
      throw new DemoApiError(`${this.account}: GET ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.rawPayload;
  }

  /** The answer's object; a refusal is an error naming the call and the app's message. */
  async call<T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, again = true): Promise<T> {
    const res = await this.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    // A session that went idle while this member of staff had nothing to do: signed in again.
    if ((res.statusCode === 511 || res.statusCode === 401) && again) {
      await this.signIn();
      return this.call<T>(method, url, body, false);
    }
    const envelope = (res.body ? res.json() : {}) as Envelope<T>;
    if (res.statusCode !== 200 || (envelope.resultCode !== undefined && envelope.resultCode !== 200))
      throw new DemoApiError(
        `${this.account}: ${method} ${url} → ${res.statusCode} ${envelope.resultMessage ?? res.body.slice(0, 300)}`,
      );
    return envelope.resultObject;
  }
}
