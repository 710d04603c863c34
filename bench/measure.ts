import autocannon from 'autocannon';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';

export interface Bench {
  title: string;
  run(): Promise<[string, string][]>;
}

export interface LoadResult {
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
}

/** Loads one URL for a few seconds from this process and reports throughput (autocannon). */
export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ connections: 4, duration: 5, ...options });
  return {
    requestsPerSecond: result.requests.average,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export const ms = (n: number) => `${n.toFixed(2)} ms`;

export interface Spread {
  p50: number;
  p95: number;
}

/** The p50 and p95 of samples in any order. */
export function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** A spread as the bench prints it: "p50 / p95". */
export const msSpread = (s: Spread) => `${ms(s.p50)} / ${ms(s.p95)}`;

/**
 * A person reading a page again and again, pauseMs apart, while the lab's work runs beside: stop() ends
 * the reading and answers each read's time, fastest first.
 */
export function personReading(read: (n: number) => Promise<unknown>, pauseMs: number) {
  const times: number[] = [];
  let going = true;
  const done = (async () => {
    for (let n = 0; going; n++) {
      const started = performance.now();
      await read(n);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  return {
    async stop(): Promise<number[]> {
      going = false;
      await done;
      return times.sort((a, b) => a - b);
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/**
 * Latency with sub-millisecond precision: `count` requests one after another over a keep-alive
 * connection, timed with performance.now(), after a warm-up. Exact p50 / p95 of those samples.
 */
export async function latency(url: string, headers: Record<string, string> = {}, count = 600): Promise<Spread> {
  const samples: number[] = [];
  for (let i = 0; i < count + 50; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (i >= 50) samples.push(performance.now() - start);
  }
  return spread(samples);
}

export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

/**
 * A browser context for a bench. `npm run bench` runs through tsx, whose esbuild keeps function names
 * by wrapping them in a `__name(...)` helper; functions handed to page.evaluate carry those calls into
 * the page, which has no such helper. Defining it there as the identity keeps the bench code plain.
 */
export async function benchContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  return context;
}
