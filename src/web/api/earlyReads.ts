import { getResult } from './http';

/**
 * Reads started before the screen that shows them is built: sign-in asks for the dashboard's counts and
 * tasks beside the page-entry calls, so that they are there when the shell has rendered rather than
 * asked for only then (issue 23). A screen takes such an answer once, and only while it is fresh; any
 * later build of it (Refresh on its tab, a visit minutes later) reads afresh.
 */
const FRESH_MS = 5_000;

const early = new Map<string, { at: number; answer: Promise<unknown> }>();

/** Keeps an answer already asked for, for the screen built next. */
export function keepForScreen<T>(url: string, answer: Promise<T>): Promise<T> {
  // A failure is the screen's to report when it takes the answer, not an unhandled rejection meanwhile.
  answer.catch(() => undefined);
  early.set(url, { at: Date.now(), answer });
  return answer;
}

/** Asks for `url` now, for the screen built next. */
export function readEarly(url: string): void {
  keepForScreen(url, getResult(url));
}

/** The answer read early for this screen, if fresh, else a read made now. */
export function readForScreen<T>(url: string): Promise<T> {
  const kept = early.get(url);
  early.delete(url);
  return kept && Date.now() - kept.at < FRESH_MS ? (kept.answer as Promise<T>) : getResult<T>(url);
}

/** Forgets every early answer (sign-out: they belong to the user who was signed in). */
export function forgetEarlyReads(): void {
  early.clear();
}
