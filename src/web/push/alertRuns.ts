import type { Alert } from './pushChannel';

/** The latest messages a run's notice lists; older ones are counted, not shown. */
export const SHOWN_MESSAGES = 3;
/** Alerts joining a run ring the sound again no sooner than this after the last ring. */
export const RING_GAP_MS = 5_000;
/** Spec 9: a pushed alert shows 30 s; a run's notice, 30 s after its latest alert. */
export const SHOWN_MS = 30_000;

/** One notice on screen: the alerts of one type and title that came while it showed. */
export interface AlertRun {
  key: string;
  type: Alert['type'];
  title: string;
  /** Alerts in the run so far. */
  count: number;
  /** The latest messages, newest first (at most SHOWN_MESSAGES). */
  latest: string[];
  /** True for the run's first alert: a notice is opened, not updated. */
  opened: boolean;
  /** Whether this alert rings the alert sound. */
  ring: boolean;
}

/**
 * Pushed alerts gathered into runs, one notice a run (spec 9: a notification shows 30 s with sound).
 * A busy desk makes an alert a specimen (each entry a new task for the receiving group): as separate
 * notices, two hundred a morning piled up the screen, each ringing, and the page spent its frames laying
 * out the pile. A run is the alerts of one type and title while its notice shows: one notice counting
 * them, with the latest messages, ringing when it opens and at most every RING_GAP_MS as it grows, and
 * shown until SHOWN_MS after its latest alert (a run that goes on is not closed under the user's eyes).
 * The runs keep that time themselves: `expire` takes the notice away.
 */
export class AlertRuns {
  private readonly open = new Map<string, Omit<AlertRun, 'opened' | 'ring'>>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private lastRing = Number.NEGATIVE_INFINITY;

  constructor(private readonly expire: (key: string) => void = () => undefined) {}

  add(alert: Alert, now: number): AlertRun {
    const key = `${alert.type}:${alert.title}`;
    const known = this.open.get(key);
    const run = {
      key,
      type: alert.type,
      title: alert.title,
      count: (known?.count ?? 0) + 1,
      latest: [alert.message, ...(known?.latest ?? [])].slice(0, SHOWN_MESSAGES),
    };
    this.open.set(key, run);
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.closed(key);
        this.expire(key);
      }, SHOWN_MS),
    );
    const ring = !known || now - this.lastRing >= RING_GAP_MS;
    if (ring) this.lastRing = now;
    return { ...run, opened: !known, ring };
  }

  /** The run's notice closed (its time ran out, or the user closed it): the next alert starts a new run. */
  closed(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.open.delete(key);
  }
}
