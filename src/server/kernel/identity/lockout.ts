import type { Queryable } from '../db/database.js';
import { one } from '../db/database.js';

/**
 * Wrong passwords, counted per name as it was typed (trimmed), whether or not an account has that
 * name: a stranger gets the same answers for a real account and an invented one, so names cannot be
 * discovered by guessing (issue 20). Five wrong passwords in a row lock the name for a while; each
 * further lock doubles the wait, up to a ceiling, so that nobody can lock a lab out for good and a
 * guesser still gets almost nowhere. A right password, or an administrator's unlock, clears it all; a
 * name with no failure for a day is forgotten (so is its count of lockouts).
 */
export const MAX_FAILED_ATTEMPTS = 5;

export interface LockoutPolicy {
  /** The first lock's length; the n-th lock lasts baseSeconds × 2^(n-1). */
  baseSeconds: number;
  maxSeconds: number;
}

export interface GuardState {
  /** Wrong passwords since the last right one, lock or unlock. */
  failures: number;
  /** Seconds the name stays locked; 0 when it is not. */
  lockedSeconds: number;
}

const STATE = `failures, coalesce(ceil(extract(epoch from (locked_until - now())))::int, 0) as "lockedSeconds"`;

export async function guardState(db: Queryable, name: string): Promise<GuardState> {
  const row = await one<GuardState>(db, `select ${STATE} from login_guard where account = $1`, [name]);
  return { failures: row?.failures ?? 0, lockedSeconds: Math.max(0, row?.lockedSeconds ?? 0) };
}

/** Counts one wrong password, atomically (parallel guesses cannot slip past the lock); answers the state after it. */
export async function recordFailure(db: Queryable, name: string, policy: LockoutPolicy): Promise<GuardState> {
  await db.query(
    `delete from login_guard where last_failure_at < now() - interval '1 day' and (locked_until is null or locked_until < now())`,
  );
  const row = await one<GuardState>(
    db,
    `insert into login_guard as g (account, failures) values ($1, 1)
     on conflict (account) do update set
       failures = case when g.failures + 1 >= $2 then 0 else g.failures + 1 end,
       lockouts = g.lockouts + case when g.failures + 1 >= $2 then 1 else 0 end,
       locked_until = case when g.failures + 1 >= $2
         then now() + make_interval(secs => least($3::float8 * power(2, g.lockouts), $4::float8))
         else g.locked_until end,
       last_failure_at = now()
     returning ${STATE}`,
    [name, MAX_FAILED_ATTEMPTS, policy.baseSeconds, policy.maxSeconds],
  );
  return { failures: row?.failures ?? 0, lockedSeconds: Math.max(0, row?.lockedSeconds ?? 0) };
}

/** A right password or an administrator's unlock: the name starts afresh. */
export async function clearFailures(db: Queryable, name: string): Promise<void> {
  await db.query('delete from login_guard where account = $1', [name]);
}

/** Whole minutes, at least one, for the message that says how long a lock lasts. */
export const minutesOf = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));
