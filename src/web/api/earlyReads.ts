import { getResult } from './http';

/**
 * Reads started before the screen that shows them is built: sign-in asks for the dashboard's counts and
 * tasks beside the page-entry calls, so that they are there when the shell has rendered rather than
 * asked for only then (issue 23). A screen takes such an answer once, and only while it is fresh; any
 * later build of it (Refresh on its tab, a visit minutes later) reads afresh.
 */
const FRESH_MS = 5_000;

interface Early {
  at: number;
  answer: Promise<unknown>;
  /** The answer once it has come, to build the screen with at once. */
  arrived?: { value: unknown };
}

const early = new Map<string, Early>();

const isFresh = (kept: Early) => Date.now() - kept.at < FRESH_MS;

/** Keeps an answer already asked for, for the screen built next. */
export function keepForScreen<T>(url: string, answer: Promise<T>): Promise<T> {
  // A failure is the screen's to report when it takes the answer, not an unhandled rejection meanwhile.
  const kept: Early = { at: Date.now(), answer };
  answer.then(
    (value) => (kept.arrived = { value }),
    () => undefined,
  );
  early.set(url, kept);
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
  return kept && isFresh(kept) ? (kept.answer as Promise<T>) : getResult<T>(url);
}

/**
 * The answer read early for this screen if it has already come (and is fresh), for the screen's first
 * render: built with it, the screen shows its data in its first frame, instead of a loading state and
 * then a second render of the page (after sign-in, the dashboard's counts and tasks). Its read
 * (readForScreen) still takes the same answer, once, without asking again.
 */
export function arrivedForScreen<T>(url: string): T | undefined {
  const kept = early.get(url);
  return kept?.arrived && isFresh(kept) ? (kept.arrived.value as T) : undefined;
}

/** Forgets every early answer (sign-out: they belong to the user who was signed in). */
export function forgetEarlyReads(): void {
  early.clear();
}
