import { startServer, DEMO_PASSWORD } from '../tests/support/server';
import { tokenFor } from '../tests/support/client';
import { latency, load, msSpread, ratio, type Bench } from './measure';

/** Sign-in throughput (argon2id bound) and the cost of an authenticated call against a bare endpoint. */
export const authBench: Bench = {
  title: 'Sign-in and authenticated calls (PGlite, one server process)',
  async run() {
    const server = await startServer({ LOG_LEVEL: 'error' });
    try {
      const form = new URLSearchParams({
        grant_type: 'password',
        scope: 'all',
        username: 'admin',
        password: DEMO_PASSWORD,
      });
      const signIn = await load({
        url: `${server.url}/oauth/token?client_id=laboratory`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
      const auth = { authorization: `Bearer ${token}` };
      const bareLoad = await load({ url: `${server.url}/healthz` });
      const meLoad = await load({ url: `${server.url}/api/user/me`, headers: auth });
      const bare = await latency(`${server.url}/healthz`);
      const me = await latency(`${server.url}/api/user/me`, auth);
      return [
        ['login requests/s (4 connections)', `${signIn.requestsPerSecond.toFixed(1)} (non-2xx ${signIn.non2xx})`],
        ['GET /healthz (bare) requests/s', bareLoad.requestsPerSecond.toFixed(0)],
        ['GET /api/user/me requests/s', `${meLoad.requestsPerSecond.toFixed(0)} (non-2xx ${meLoad.non2xx})`],
        ['GET /healthz (bare) p50 / p95', msSpread(bare)],
        ['GET /api/user/me p50 / p95', msSpread(me)],
        ['ratio me / bare p50 / p95', `${ratio(me.p50, bare.p50)} / ${ratio(me.p95, bare.p95)}`],
      ];
    } finally {
      await server.dispose();
    }
  },
};
