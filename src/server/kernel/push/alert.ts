/** An alert as other server code hands it over (spec 3: type, title, message). */
export interface PushAlert {
  type: string;
  title: string;
  message: string;
}

/** What the browser receives: the alert and when the server sent it (ISO 8601). */
export interface PushedAlert extends PushAlert {
  time: string;
}

export const ALERT_TYPES = ['info', 'success', 'warning', 'error'] as const;

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; keep clear of it. */
export const NOTIFY_LIMIT_BYTES = 7900;
/** At most this much of a notification goes to the alert, so at least one user id always fits beside it. */
const ALERT_BUDGET_BYTES = 4000;
const TYPE_MAX_CHARS = 32;
const TITLE_MAX_CHARS = 200;
const ELLIPSIS = '…';

export const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/** Fixes the key order of the JSON the browser parses: type, title, message, time. */
export function stamp(alert: PushAlert, now: Date): PushedAlert {
  return { type: alert.type, title: alert.title, message: alert.message, time: now.toISOString() };
}

function clip(text: string, maxChars: number): string {
  const chars = Array.from(text);
  return chars.length <= maxChars ? text : chars.slice(0, maxChars).join('') + ELLIPSIS;
}

/**
 * Other server code may push any text; what does not fit one notification is cut from the end of the
 * message (by characters, never inside one), so an alert reads the same whichever process delivers it.
 */
export function fitAlert(alert: PushedAlert, budget = ALERT_BUDGET_BYTES): PushedAlert {
  const short = {
    ...alert,
    type: clip(alert.type, TYPE_MAX_CHARS),
    title: clip(alert.title, TITLE_MAX_CHARS),
  };
  const fits = (message: string) => byteLength(JSON.stringify({ ...short, message })) <= budget;
  if (fits(short.message)) return short;
  const chars = Array.from(short.message);
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(chars.slice(0, mid).join('') + ELLIPSIS)) low = mid;
    else high = mid - 1;
  }
  return { ...short, message: chars.slice(0, low).join('') + ELLIPSIS };
}

/** One notification's content: which users, and the alert they all get. */
export interface Delivery {
  userIds: number[];
  alert: PushedAlert;
}

/** Many recipients are spread over several notifications, each under the NOTIFY limit. */
export function splitForNotify(userIds: readonly number[], alert: PushedAlert): string[] {
  const overhead = byteLength(JSON.stringify({ userIds: [], alert }));
  const room = NOTIFY_LIMIT_BYTES - overhead;
  const payloads: string[] = [];
  let batch: number[] = [];
  let used = 0;
  for (const id of userIds) {
    const cost = String(id).length + 1;
    if (batch.length > 0 && used + cost > room) {
      payloads.push(JSON.stringify({ userIds: batch, alert } satisfies Delivery));
      batch = [];
      used = 0;
    }
    batch.push(id);
    used += cost;
  }
  if (batch.length > 0) payloads.push(JSON.stringify({ userIds: batch, alert } satisfies Delivery));
  return payloads;
}

/** A notification from another process; anything malformed is ignored rather than trusted. */
export function readDelivery(payload: string): Delivery | undefined {
  try {
    const value = JSON.parse(payload) as Partial<Delivery>;
    const { userIds, alert } = value;
    if (!Array.isArray(userIds) || !userIds.every(Number.isInteger)) return undefined;
    if (!alert || typeof alert.title !== 'string' || typeof alert.message !== 'string') return undefined;
    return {
      userIds,
      alert: {
        type: String(alert.type),
        title: alert.title,
        message: alert.message,
        time: String(alert.time),
      },
    };
  } catch {
    return undefined;
  }
}
