import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

/**
 * Issue 20, security headers on the app's pages and on the API: a CSP with no inline script and no
 * eval, no framing, no sniffing, no referrer; HSTS only over TLS (a trusted proxy saying so).
 */
let webRoot: string;
let server: TestServer;
let behindProxy: TestServer;
beforeAll(async () => {
  // A small stand-in for the built app (the API suite does not build it): a page and a hashed asset.
  webRoot = mkdtempSync(path.join(tmpdir(), 'lims-web-'));
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(
    path.join(webRoot, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body></body></html>',
  );
  writeFileSync(path.join(webRoot, 'assets', 'index-abc.js'), 'console.log("app")');
  [server, behindProxy] = await Promise.all([
    startServer({ LIMS_WEB_ROOT: webRoot }),
    startServer({ LIMS_WEB_ROOT: webRoot, LIMS_TRUSTED_PROXIES: '127.0.0.1' }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.dispose(), behindProxy?.dispose()]);
  rmSync(webRoot, { recursive: true, force: true });
});

function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectSecurityHeaders(res: Response) {
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  const all = [...csp.values()].flat();
  expect(all).not.toContain("'unsafe-eval'");
  // Inline styles only (antd's CSS-in-JS); inline script nowhere.
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.has('upgrade-insecure-requests')).toBe(false);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
}

describe('security headers', () => {
  it('are on the app page, its assets and client routes', async () => {
    for (const p of ['/', '/login', '/dashboard', '/assets/index-abc.js']) {
      const res = await fetch(server.url + p);
      expect(res.status, p).toBe(200);
      expectSecurityHeaders(res);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('are on API answers, refusals included', async () => {
    const refused = await fetch(`${server.url}/api/user/me`);
    expect(refused.status).toBe(401);
    expectSecurityHeaders(refused);
    const signIn = await fetch(`${server.url}/oauth/token?client_id=laboratory`, { method: 'POST' });
    expectSecurityHeaders(signIn);
    const health = await fetch(`${server.url}/healthz`);
    expectSecurityHeaders(health);
  });

  it('say HSTS only when the request came over TLS through a trusted proxy', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    // No proxy trusted: a client claiming TLS is not believed.
    expect(
      (await fetch(`${server.url}/login`, { headers: https })).headers.get('strict-transport-security'),
    ).toBeNull();
    expect((await fetch(`${behindProxy.url}/login`)).headers.get('strict-transport-security')).toBeNull();
    const overTls = await fetch(`${behindProxy.url}/login`, { headers: https });
    expect(overTls.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
    const api = await fetch(`${behindProxy.url}/api/user/me`, { headers: https });
    expect(api.headers.get('strict-transport-security')).toMatch(/^max-age=/);
  });
});
