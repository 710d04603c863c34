import type { Database, Listening, Queryable } from '../db/database.js';
import { checkToken, hashToken, readSession, touchSession, type SessionCheck, type SessionRow } from './sessions.js';

/** The channel migration 20's triggers notify on: `token:<hash>`, `user:<id>` or `all`. */
export const SESSION_CHANNEL = 'lims_session';

/**
 * A statement of this process that may end a session or change who it acts for (or its lab's time
 * zone, which a session carries: a lab's configuration is written rarely). Touching last_used_at
 * is left out: it is the cache's own bookkeeping, every few seconds of use.
 */
const IDENTITY_WRITE =
  /^\s*(update|delete\s+from|insert\s+into)\s+(session_token|app_user|user_role|role|custom_config)\b/i;
const changesSessions = (sql: string) =>
  IDENTITY_WRITE.test(sql) && !/^\s*update\s+session_token\s+set\s+last_used_at\b/i.test(sql);

/** A bound on how many sessions one process remembers; past it the oldest are forgotten. */
const MOST_SESSIONS = 10_000;

/**
 * Every signed-in call's token check, answered from memory (issue 23): without it each call paid a
 * database round trip on the one embedded connection, and `/api/user/me` served a thirtieth of the
 * framework's rate. The database stays the judge: migration 20's triggers notify on any change that
 * ends a session or alters who it acts for (revoked, deleted, the user's name, organisation, password
 * flag or roles), and every process LISTENs and forgets the entries concerned, so a revoked token is
 * refused on every process as soon as the revoking transaction commits. While notices cannot be heard
 * (the LISTEN connection is down) nothing is cached. A session that looks idle is read afresh, since
 * another process may have used it since.
 */
export class SessionCache {
  private readonly byHash = new Map<string, SessionRow>();
  private listening: Listening | undefined;
  /** Counts notices, so a read that a notice overtook is not remembered (it may predate the change). */
  private notices = 0;

  constructor(private readonly db: Database) {}

  async start(): Promise<void> {
    this.listening = await this.db.listen(
      SESSION_CHANNEL,
      (payload) => this.forget(payload),
      () => this.forget('all'),
    );
  }

  /**
   * The database as this process's code uses it, so that its own changes to sessions apply before the
   * call that made them answers: on PostgreSQL the notice of one's own commit comes back a few
   * milliseconds later, and the next call of the same browser could be quicker. Forgotten when the
   * statement runs and again at commit, so a read between the two is not kept.
   */
  watching(db: Database): Database {
    const watched = (q: Queryable, changed: () => void): Queryable => ({
      query: async <Row>(sql: string, params?: unknown[]) => {
        const rows = await q.query<Row>(sql, params);
        if (changesSessions(sql)) changed();
        return rows;
      },
      exec: (sql) => q.exec(sql),
    });
    const now = () => this.forget('all');
    return {
      ...db,
      ...watched(db, now),
      async transaction(fn) {
        let changed = false;
        const result = await db.transaction((tx) =>
          fn(
            watched(tx, () => {
              changed = true;
              now();
            }),
          ),
        );
        if (changed) now();
        return result;
      },
      close: () => db.close(),
      listen: (channel, onNotice, onGap) => db.listen(channel, onNotice, onGap),
    };
  }

  async close(): Promise<void> {
    await this.listening?.close();
    this.listening = undefined;
    this.byHash.clear();
  }

  async check(token: string, now: Date, idleSeconds: number): Promise<SessionCheck> {
    if (!this.listening?.listening) return checkToken(this.db, token, now, idleSeconds);
    const tokenHash = hashToken(token);
    const known = this.byHash.get(tokenHash);
    const fresh = known && now.getTime() - known.last_used_at.getTime() <= idleSeconds * 1000;
    const before = this.notices;
    const row = fresh ? known : await readSession(this.db, tokenHash);
    if (row && !fresh && before === this.notices) this.remember(tokenHash, row);
    return this.judge(tokenHash, row, now, idleSeconds);
  }

  private async judge(tokenHash: string, row: SessionRow | undefined, now: Date, idleSeconds: number) {
    const result = await touchSession(this.db, tokenHash, row, now, idleSeconds);
    if (result.status !== 'ok') this.byHash.delete(tokenHash);
    return result;
  }

  private remember(tokenHash: string, row: SessionRow): void {
    if (this.byHash.size >= MOST_SESSIONS) this.byHash.delete(this.byHash.keys().next().value as string);
    this.byHash.set(tokenHash, row);
  }

  /** A change notice: the sessions it names are read from the database next time. */
  private forget(payload: string): void {
    this.notices++;
    const [kind, key] = payload.split(':');
    if (kind === 'token' && key) this.byHash.delete(key);
    else if (kind === 'user' && key) {
      for (const [hash, row] of this.byHash) if (String(row.user_id) === key) this.byHash.delete(hash);
    } else this.byHash.clear();
  }
}
