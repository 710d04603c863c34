import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** A year, with subdomains: what a browser remembers once it has seen the app over TLS. */
const HSTS = 'max-age=31536000; includeSubDomains';

/** The Host the page was asked from, when it is a plain host[:port]: nothing else may enter the policy. */
function hostOf(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? host : 'localhost';
}

/**
 * Security headers on every answer, the app's pages and the API alike (issue 20), set by @fastify/helmet.
 *
 * The Content-Security-Policy allows scripts from the app's own origin only: no inline script (the
 * built index.html has none: Vite emits module scripts with src) and no eval. Styles need
 * 'unsafe-inline': antd's CSS-in-JS writes its styles into <style> elements at run time, and a nonce
 * would mean rendering index.html per answer and handing the nonce to every style provider. An
 * injected style can restyle a page but not run code, which is what script-src guards.
 * Pages may not be framed by anyone (frame-ancestors 'none', and X-Frame-Options for old browsers),
 * answers are never sniffed into another type, and no Referer leaves the app.
 *
 * Strict-Transport-Security is sent only on a request that came over TLS (through a trusted proxy
 * saying X-Forwarded-Proto: https): on plain HTTP, as a lab's LAN often serves, it would be ignored at
 * best, and a browser holding it would refuse the plain address later.
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      // helmet's defaults include upgrade-insecure-requests, which breaks the app on a plain-HTTP LAN.
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // data: the favicon and antd's inline icons; blob: downloads and previews made in the page.
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // The push channel is a WebSocket to the same host; older browsers do not count ws: as 'self'.
        connectSrc: ["'self'", (req) => `ws://${hostOf(req)}`, (req) => `wss://${hostOf(req)}`],
        mediaSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: false,
    // The app loads nothing cross-origin; embedding it elsewhere is what frame-ancestors refuses.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
  });
}
