import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { tokenFor } from '../support/client';

/**
 * Issue 23, compression and caching: the build's .br/.gz copies sent as the browser accepts, hashed
 * assets cached for good, index.html never, and JSON answers compressed on the fly.
 */
let webRoot: string;
let server: TestServer;
const script = `console.log(${JSON.stringify('the app '.repeat(400))});`;

beforeAll(async () => {
  // A stand-in for the built app as vite.config.ts writes it: each asset with its .br and .gz beside it.
  webRoot = mkdtempSync(path.join(tmpdir(), 'lims-web-'));
  mkdirSync(path.join(webRoot, 'assets'));
  const page = `<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body>${' '.repeat(2000)}</body></html>`;
  writeFileSync(path.join(webRoot, 'index.html'), page);
  const asset = path.join(webRoot, 'assets', 'index-abc.js');
  writeFileSync(asset, script);
  writeFileSync(`${asset}.br`, zlib.brotliCompressSync(script));
  writeFileSync(`${asset}.gz`, zlib.gzipSync(script));
  server = await startServer({ LIMS_WEB_ROOT: webRoot });
});
afterAll(async () => {
  await server?.dispose();
  rmSync(webRoot, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** The bytes as they come over the wire (fetch would undo the encoding and hide it). */
function raw(pathname: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.url}${pathname}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

function decoded(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body).toString();
  return answer.body.toString();
}

describe('built assets', () => {
  it('come brotli-encoded to a browser that accepts br, gzip to one that accepts only gzip', async () => {
    const br = await raw('/assets/index-abc.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(script.length / 5);
    expect(decoded(br)).toBe(script);
    expect(br.headers['content-type']).toMatch(/javascript/);

    const gzip = await raw('/assets/index-abc.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(script);
  });

  it('come as they are to a client that asks for no encoding', async () => {
    const plain = await raw('/assets/index-abc.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('are cached as immutable when hashed, while index.html and client routes are never cached', async () => {
    const asset = await raw('/assets/index-abc.js', { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.vary).toMatch(/accept-encoding/i);
    for (const page of ['/', '/login', '/dashboard']) {
      const answer = await raw(page, { 'accept-encoding': 'br' });
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(decoded(answer)).toContain('/assets/index-abc.js');
    }
  });
});

describe('JSON answers', () => {
  it('are compressed on the fly when large, as the client accepts', async () => {
    const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    const headers = { authorization: `Bearer ${token}` };
    const plain = await raw('/api/ui/menu', { ...headers, 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip']) {
      const answer = await raw('/api/ui/menu', { ...headers, 'accept-encoding': encoding });
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.body.length).toBeLessThan(plain.body.length / 3);
      expect(JSON.parse(decoded(answer))).toEqual(JSON.parse(plain.body.toString()));
    }
  });

  it('stay plain when small: compressing a few bytes costs more than it saves', async () => {
    const answer = await raw('/healthz', { 'accept-encoding': 'br, gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toEqual({ status: 'ok' });
  });
});

describe('the menu icon sprite', () => {
  it('answers, to anyone and compressed, a symbol per icon the menu names, cached for a day', async () => {
    // The names the admin's sidebar asks for: every icon of its menu.
    const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    const menu = await (
      await fetch(`${server.url}/api/ui/menu`, { headers: { authorization: `Bearer ${token}` } })
    ).text();
    const names = [...new Set([...menu.matchAll(/"icon":"(\w+)"/g)].map((m) => m[1]!))];
    expect(names.length).toBeGreaterThan(10);
    const answer = await raw(`/icons/sprite.svg?names=${names.join(',')}`, { 'accept-encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['cache-control']).toBe('public, max-age=86400');
    const svg = decoded(answer);
    const ids = [...svg.matchAll(/<symbol id="(\w+)" viewBox="[\d ]+">/g)].map((m) => m[1]);
    expect(ids.sort()).toEqual([...names].sort());
    expect(svg).toMatch(/<symbol id="\w+" viewBox="[\d ]+"><path d="M/);
  });

  it('leaves out a name that is no icon, and draws the rest', async () => {
    const answer = await raw('/icons/sprite.svg?names=NoSuchOutlined,BugOutlined,..%2F..%2Fpackage', {});
    expect(answer.status).toBe(200);
    const svg = answer.body.toString();
    expect([...svg.matchAll(/<symbol id="(\w+)"/g)].map((m) => m[1])).toEqual(['BugOutlined']);
  });
});
