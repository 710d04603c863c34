import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.js';
import type { AuthUser } from './actor.js';

/**
 * Bearer tokens are random and shown once; only their SHA-256 is stored, so a copy of the database
 * does not let anyone sign in. A token dies when revoked, when its lifetime ends, or when unused for
 * the idle limit (then the caller is told 511, spec 8).
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function issueToken(db: Queryable, userId: number, now: Date, ttlSeconds: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(now.getTime() + ttlSeconds * 1000);
  await db.query(
    `insert into session_token (token_hash, user_id, created_at, last_used_at, expires_at) values ($1, $2, $3, $3, $4)`,
    [hashToken(token), userId, now, expires],
  );
  return token;
}

export type SessionCheck = { status: 'ok'; user: AuthUser } | { status: 'unknown' } | { status: 'idle' };

export interface SessionRow {
  user_id: number;
  last_used_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  user_account: string;
  user_name: string;
  org_id: number;
  password_flag: number;
  roles: string[] | null;
  time_zone: string | null;
}

/** Touching last_used_at on every call would be one write per request; a few seconds of slack is harmless. */
const TOUCH_EVERY_MS = 5_000;

/** The session of a token hash with the user it acts for and their role codes, as stored. */
export async function readSession(db: Queryable, tokenHash: string): Promise<SessionRow | undefined> {
  const rows = await db.query<SessionRow>(
    `select s.user_id, s.last_used_at, s.expires_at, s.revoked_at,
            u.user_account, u.user_name, u.org_id, u.password_flag,
            array(select r.code from user_role ur join role r on r.id = ur.role_id where ur.user_id = u.id) as roles,
            (select c.value->>'zone' from custom_config c
              where c.org_id = u.org_id and c.config_key = 'timeZone') as time_zone
       from session_token s join app_user u on u.id = s.user_id
      where s.token_hash = $1`,
    [tokenHash],
  );
  return rows[0];
}

/**
 * Judges a session at `now`: unknown when revoked or expired; idle (and revoked) past the idle limit;
 * else live, its last use moved to now when older than `touchEveryMs` (the row too, for a cache).
 */
export async function touchSession(
  db: Queryable,
  tokenHash: string,
  row: SessionRow | undefined,
  now: Date,
  idleSeconds: number,
  touchEveryMs = TOUCH_EVERY_MS,
): Promise<SessionCheck> {
  if (!row || row.revoked_at || row.expires_at.getTime() <= now.getTime()) return { status: 'unknown' };
  const idleMs = now.getTime() - row.last_used_at.getTime();
  if (idleMs > idleSeconds * 1000) {
    await revokeToken(db, tokenHash, now);
    return { status: 'idle' };
  }
  if (idleMs > touchEveryMs) {
    await db.query('update session_token set last_used_at = $2 where token_hash = $1', [tokenHash, now]);
    row.last_used_at = now;
  }
  return {
    status: 'ok',
    user: {
      id: row.user_id,
      orgId: row.org_id,
      roles: row.roles ?? [],
      userAccount: row.user_account,
      userName: row.user_name,
      passwordFlag: row.password_flag,
      ...(row.time_zone && { timeZone: row.time_zone }),
      tokenHash,
    },
  };
}

export async function checkToken(db: Queryable, token: string, now: Date, idleSeconds: number): Promise<SessionCheck> {
  const tokenHash = hashToken(token);
  return touchSession(db, tokenHash, await readSession(db, tokenHash), now, idleSeconds);
}

export async function revokeToken(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('update session_token set revoked_at = $2 where token_hash = $1 and revoked_at is null', [
    tokenHash,
    now,
  ]);
}

export async function revokeUserTokens(db: Queryable, userId: number, now: Date): Promise<void> {
  await db.query('update session_token set revoked_at = $2 where user_id = $1 and revoked_at is null', [userId, now]);
}
