import autocannon from 'autocannon';
import { startServer, DEMO_PASSWORD, type TestServer } from '../tests/support/server';
import { api, tokenFor } from '../tests/support/client';
import { answers, POSTGRES_ADMIN_URL } from './resources';
import type { Bench } from './measure';

/** The list a lab of fifty users at the bench keeps asking for: 1,008 rows, a page of 50, filter + sort. */
const ROWS = 1_008;
const CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS) || 5;
const CATEGORIES = ['blood', 'urine', 'fluid', 'tissue', 'cell', 'secretion', 'other'];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** autocannon against one URL of a server running as its own process, as in production. */
async function hammer(url: string, headers: Record<string, string> = {}): Promise<Figures> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

/** The rows entered through the API, as staff would, a few at a time. */
async function seed(server: TestServer, token: string) {
  const client = api(server.url, token);
  let next = 0;
  const worker = async () => {
    while (next < ROWS) {
      const i = next++;
      const res = await client.post('/api/resources/specimenType', {
        code: `TP${String(i).padStart(5, '0')}`,
        name: `通量${i}`,
        category: CATEGORIES[i % CATEGORIES.length],
        stableHours: i % 72,
        enabled: i % 7 !== 0,
      });
      if (res.status !== 200) throw new Error(`seeding failed: ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

const line = (f: Figures) =>
  `${f.rps.toFixed(0)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms${f.non2xx ? `  (non-2xx ${f.non2xx})` : ''}`;

async function throughputOn(kind: string): Promise<[string, string][]> {
  const server = await startServer({ LOG_LEVEL: 'error' });
  try {
    const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    await seed(server, token);
    const auth = { authorization: `Bearer ${token}` };
    const bare = await hammer(`${server.url}/healthz`);
    const me = await hammer(`${server.url}/api/user/me`, auth);
    const list = await hammer(
      `${server.url}/api/resources/specimenType?category=blood&name=${encodeURIComponent('通量')}&sort=code,desc&page=2&size=50`,
      auth,
    );
    return [
      [`${kind}: GET /healthz`, line(bare)],
      [`${kind}: GET /api/user/me`, line(me)],
      [`${kind}: list ${ROWS} rows, filter + sort, page of 50`, line(list)],
      [`${kind}: me / healthz (goal ≥ 0.25x)`, `${(me.rps / bare.rps).toFixed(2)}x`],
      [`${kind}: list / me (goal ≥ 0.5x)`, `${(list.rps / me.rps).toFixed(2)}x`],
    ];
  } finally {
    await server.dispose();
  }
}

/**
 * Requests per second of one server process under 10 concurrent connections (issue 23), on the
 * embedded database and on PostgreSQL when one answers: the bare framework, a signed-in call (the
 * token check) and the generic list, with the ratios the issue sets goals for.
 */
export const throughputBench: Bench = {
  title: `Throughput of one server process, ${CONNECTIONS} connections, ${SECONDS} s each (autocannon)`,
  async run() {
    const saved = process.env.TEST_DATABASE_URL;
    delete process.env.TEST_DATABASE_URL;
    const rows = await throughputOn('PGlite');
    if (!(await answers(POSTGRES_ADMIN_URL)))
      return [...rows, ['PostgreSQL', `not answering at ${new URL(POSTGRES_ADMIN_URL).host}: skipped`]];
    // startServer gives each server its own scratch database on the server TEST_DATABASE_URL names.
    process.env.TEST_DATABASE_URL = POSTGRES_ADMIN_URL;
    try {
      return [...rows, ...(await throughputOn('PostgreSQL'))];
    } finally {
      if (saved === undefined) delete process.env.TEST_DATABASE_URL;
      else process.env.TEST_DATABASE_URL = saved;
    }
  },
};
