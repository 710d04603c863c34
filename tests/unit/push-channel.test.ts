import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  HEARTBEAT_MS,
  RECONNECT_MS,
  REPLY_TIMEOUT_MS,
  openPushChannel,
  type Alert,
} from '../../src/web/push/pushChannel';
import { DURATION, feedback, notify } from '../../src/web/feedback/feedback';

/** A WebSocket the test drives by hand: it records what was sent and opens, talks and closes on cue. */
class FakeSocket {
  static made: FakeSocket[] = [];
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(public url: string) {
    FakeSocket.made.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
  open() {
    this.onopen?.();
  }
  receive(data: string) {
    this.onmessage?.({ data });
  }
}

const last = () => FakeSocket.made[FakeSocket.made.length - 1]!;

describe('push channel (spec 4, 9)', () => {
  let alerts: Alert[];
  let mayReconnect: boolean;
  let stop: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.made = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    alerts = [];
    mayReconnect = true;
    stop = openPushChannel({
      userId: '1000',
      token: 'tok en',
      onAlert: (a) => alerts.push(a),
      mayReconnect: () => mayReconnect,
    });
    last().open();
  });
  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('opens one socket for the user, with the token, on this host', () => {
    expect(FakeSocket.made).toHaveLength(1);
    expect(last().url).toBe(`ws://${window.location.host}/api/websocket/1000?token=tok%20en`);
  });

  it('sends a heartbeat after 59 s of silence, and not before', () => {
    vi.advanceTimersByTime(HEARTBEAT_MS - 1);
    expect(last().sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(last().sent).toEqual(['ping']);
  });

  it('counts any message as life: the heartbeat waits another 59 s', () => {
    vi.advanceTimersByTime(HEARTBEAT_MS - 1000);
    last().receive(JSON.stringify({ type: 'info', title: '新任务', message: '标本 S001 待审核' }));
    vi.advanceTimersByTime(HEARTBEAT_MS - 1);
    expect(last().sent).toEqual([]);
    expect(alerts).toEqual([{ type: 'info', title: '新任务', message: '标本 S001 待审核' }]);
  });

  it('closes when the heartbeat gets no reply within 59 s, and reconnects 10 s later', () => {
    vi.advanceTimersByTime(HEARTBEAT_MS + REPLY_TIMEOUT_MS - 1);
    expect(last().closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.made[0]!.closed).toBe(true);
    vi.advanceTimersByTime(RECONNECT_MS - 1);
    expect(FakeSocket.made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.made).toHaveLength(2);
  });

  it('stays open when the reply comes', () => {
    vi.advanceTimersByTime(HEARTBEAT_MS);
    last().receive('pong');
    vi.advanceTimersByTime(REPLY_TIMEOUT_MS);
    expect(last().closed).toBe(false);
    expect(alerts).toEqual([]);
  });

  it('does not reconnect while the route is marked noWebsocket, nor after sign-out', () => {
    mayReconnect = false;
    last().close();
    vi.advanceTimersByTime(RECONNECT_MS * 3);
    expect(FakeSocket.made).toHaveLength(1);

    mayReconnect = true;
    stop();
    vi.advanceTimersByTime(RECONNECT_MS * 3);
    expect(FakeSocket.made).toHaveLength(1);
  });

  it('shows nothing for a message that is not an alert', () => {
    last().receive('not json');
    last().receive(JSON.stringify({ topic: 'screens', ids: ['reagent'] }));
    expect(alerts).toEqual([]);
  });
});

describe('message durations (spec 8)', () => {
  it('keeps info, success and warning 1 s and errors 8 s', () => {
    const shown: [string, number][] = [];
    const message = {
      ...Object.fromEntries(
        (['info', 'success', 'warning', 'error'] as const).map((kind) => [
          kind,
          (_text: string, seconds: number) => shown.push([kind, seconds]),
        ]),
      ),
      // Success and error go through open (a key lets a success replace an earlier try's error).
      open: ({ type, duration }: { type: string; duration: number }) => shown.push([type, duration]),
    };
    Object.assign(feedback, { message });
    notify.info('a');
    notify.success('b');
    notify.warning('c');
    notify.error('d');
    expect(shown).toEqual([
      ['info', 1],
      ['success', 1],
      ['warning', 1],
      ['error', 8],
    ]);
    expect(DURATION).toEqual({ info: 1, success: 1, warning: 1, error: 8 });
  });
});
