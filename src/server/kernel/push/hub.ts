import type { WebSocket } from 'ws';
import type { Database } from '../db/database.js';
import { fitAlert, readDelivery, splitForNotify, stamp, type Delivery, type PushAlert } from './alert.js';
import { heartbeatReply } from './heartbeat.js';
import { NotifyListener, type PushLog } from './listener.js';
import { newsPayload, readNews, type OrgNews } from './news.js';

export const PUSH_CHANNEL = 'lims_push';

/** Close codes the browser can tell apart (4000-4999 are the application's own). */
export const CLOSE = {
  unauthorized: 4401,
  forbidden: 4403,
  silent: 4408,
  idle: 4511,
  stopping: 1001,
} as const;

/** Spec 9: the browser pings after 59 s of silence; twice that without a word means the peer is gone. */
export function silenceLimitSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.LIMS_WS_IDLE_SECONDS);
  return Number.isFinite(n) && n > 0 ? n : 2 * 59;
}

export interface PushHubOptions {
  /** PostgreSQL connection string for the LISTEN connection; required when db.kind is 'postgres'. */
  databaseUrl?: string | undefined;
  now?: () => Date;
  silenceLimitSeconds?: number;
  log?: PushLog;
}

/**
 * The push channel of spec 4: the open sockets of this process, by user, and the way an alert reaches
 * a user whichever process holds their socket. On PostgreSQL every process LISTENs and delivers to its
 * own sockets, so an alert is sent by NOTIFY only (and comes back to this process the same way). PGlite
 * runs in one process, so delivery is direct.
 */
export class PushHub {
  private readonly sockets = new Map<number, Set<WebSocket>>();
  /** Each connected user's organisation: news for an organisation reaches only its own browsers. */
  private readonly orgOfUser = new Map<number, number>();
  private readonly now: () => Date;
  readonly silenceLimitMs: number;

  private readonly listener: NotifyListener | undefined;

  private constructor(
    private readonly db: Database,
    options: PushHubOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.silenceLimitMs = (options.silenceLimitSeconds ?? silenceLimitSeconds()) * 1000;
    if (db.kind !== 'postgres') return;
    if (!options.databaseUrl) throw new Error('PushHub on PostgreSQL needs the databaseUrl to LISTEN with');
    const log = options.log ?? { warn: (message: string) => console.warn(message) };
    this.listener = new NotifyListener(options.databaseUrl, PUSH_CHANNEL, (payload) => this.receive(payload), log);
  }

  static async open(db: Database, options: PushHubOptions = {}): Promise<PushHub> {
    const hub = new PushHub(db, options);
    await hub.listener?.start();
    return hub;
  }

  async pushToUser(userId: number, alert: PushAlert): Promise<void> {
    await this.pushToUsers([userId], alert);
  }

  async pushToUsers(userIds: readonly number[], alert: PushAlert): Promise<void> {
    const recipients = [...new Set(userIds)];
    if (recipients.length === 0) return;
    const fitted = fitAlert(stamp(alert, this.now()));
    if (!this.listener) return this.deliver({ userIds: recipients, alert: fitted });
    for (const payload of splitForNotify(recipients, fitted)) {
      await this.db.query('select pg_notify($1, $2)', [PUSH_CHANNEL, payload]);
    }
  }

  /**
   * Tells every open browser of one organisation, on whichever process, something that is not an alert
   * (it has a topic and no title, so the browser does not show it): that its dashboard's counts changed.
   */
  async tellOrganization(news: OrgNews): Promise<void> {
    if (!this.listener) return this.deliverNews(news);
    await this.db.query('select pg_notify($1, $2)', [PUSH_CHANNEL, newsPayload(news)]);
  }

  /** Takes over a socket whose user is already authenticated: heartbeat, silence limit, alerts. */
  attach(userId: number, orgId: number, socket: WebSocket): void {
    this.orgOfUser.set(userId, orgId);
    this.register(userId, socket);
    const silence = setTimeout(() => socket.close(CLOSE.silent, 'silent too long'), this.silenceLimitMs);
    const heard = () => silence.refresh();
    socket.on('message', (data, isBinary) => {
      heard();
      const reply = isBinary ? undefined : heartbeatReply(data.toString());
      if (reply) socket.send(reply);
    });
    socket.on('ping', heard);
    socket.on('close', () => {
      clearTimeout(silence);
      this.unregister(userId, socket);
    });
  }

  /**
   * Tells every browser connected to this process something that is not an alert (it has a `topic`
   * and no title, so the browser does not show it), e.g. that screen files changed. Each process
   * watches its own files, so each tells its own sockets: no NOTIFY.
   */
  broadcast(message: { topic: string } & Record<string, unknown>): void {
    const text = JSON.stringify(message);
    for (const set of this.sockets.values())
      for (const socket of set) if (socket.readyState === socket.OPEN) socket.send(text);
  }

  /** Number of open sockets of a user in this process (for tests and diagnostics). */
  socketCount(userId: number): number {
    return this.sockets.get(userId)?.size ?? 0;
  }

  /** Tells this process's browsers it is going away, so they reconnect (to another process, or later). */
  sayGoodbye(): void {
    for (const set of this.sockets.values()) for (const socket of set) socket.close(CLOSE.stopping, 'server stopping');
    this.sockets.clear();
  }

  async close(): Promise<void> {
    await this.listener?.close();
    this.sayGoodbye();
  }

  private receive(payload: string): void {
    const delivery = readDelivery(payload);
    if (delivery) return this.deliver(delivery);
    const news = readNews(payload);
    if (news) this.deliverNews(news);
  }

  private deliverNews({ orgId, news }: OrgNews): void {
    const text = JSON.stringify(news);
    for (const [userId, set] of this.sockets) {
      if (this.orgOfUser.get(userId) !== orgId) continue;
      for (const socket of set) if (socket.readyState === socket.OPEN) socket.send(text);
    }
  }

  private deliver({ userIds, alert }: Delivery): void {
    const text = JSON.stringify(alert);
    for (const userId of userIds) {
      for (const socket of this.sockets.get(userId) ?? []) {
        if (socket.readyState === socket.OPEN) socket.send(text);
      }
    }
  }

  private register(userId: number, socket: WebSocket): void {
    const set = this.sockets.get(userId) ?? new Set<WebSocket>();
    set.add(socket);
    this.sockets.set(userId, set);
  }

  private unregister(userId: number, socket: WebSocket): void {
    const set = this.sockets.get(userId);
    if (!set) return;
    set.delete(socket);
    if (set.size > 0) return;
    this.sockets.delete(userId);
    this.orgOfUser.delete(userId);
  }
}
