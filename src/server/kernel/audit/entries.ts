import type { Queryable } from '../db/database.js';
import { one } from '../db/database.js';
import type { AuthUser } from '../identity/actor.js';
import { lockChain } from './chain.js';
import { appendLog } from './log.js';

/** What the operation-log screen filters on: account, resource, action and a time window. */
export interface LogFilter {
  userAccount?: string;
  resource?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** A log entry as the screen and the workbook show it: before and after as JSON text. */
export interface LogEntry {
  id: number;
  at: string;
  userAccount: string | null;
  resource: string;
  recordId: string | null;
  action: string;
  ip: string | null;
  before: string | null;
  after: string | null;
}

function where(orgId: number, f: LogFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [orgId];
  const clauses = ['org_id = $1'];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    clauses.push(clause.replace('?', `$${params.length}`));
  };
  if (f.userAccount) add('user_account ilike ?', `%${f.userAccount}%`);
  if (f.resource) add('resource = ?', f.resource);
  if (f.action) add('action = ?', f.action);
  if (f.from) add('at >= ?::timestamptz', f.from);
  if (f.to) add('at <= ?::timestamptz', f.to);
  return { sql: clauses.join(' and '), params };
}

/** The organisation's log entries, newest first, their times shown in the lab's zone. */
export async function findLog(
  db: Queryable,
  orgId: number,
  f: LogFilter,
  page: { page: number; size: number },
  timeZone: string,
) {
  const w = where(orgId, f);
  const total = await one<{ n: number }>(db, `select count(*)::int as n from operation_log where ${w.sql}`, w.params);
  const records = await db.query<LogEntry>(
    `select id, to_char(at at time zone $${w.params.length + 1}, 'YYYY-MM-DD HH24:MI:SS') as at, user_account as "userAccount", resource,
            record_id as "recordId", action, ip, before::text as before, after::text as after
       from operation_log where ${w.sql} order by id desc limit ${page.size} offset ${(page.page - 1) * page.size}`,
    [...w.params, timeZone],
  );
  return { records, total: total?.n ?? 0 };
}

/**
 * Empties the organisation's log (spec 7.7 deleteAll) without breaking its chain: the checkpoint entry
 * that records the emptying is appended first, chained to the last entry, then every entry before it
 * goes. The checkpoint keeps how many went, up to which place, and their last hash; the new log starts
 * with it. Answers how many entries went.
 */
export async function emptyLog(db: Queryable, actor: Pick<AuthUser, 'id' | 'userAccount' | 'orgId'>, ip: string) {
  await lockChain(db, actor.orgId);
  const last = await one<{ n: number; seq: string | null; hash: string | null }>(
    db,
    `select count(*)::int as n, max(seq) as seq, (select hash from operation_log where org_id = $1 order by seq desc limit 1) as hash
       from operation_log where org_id = $1`,
    [actor.orgId],
  );
  const deleted = last?.n ?? 0;
  await appendLog(db, actor, {
    resource: 'operationLog',
    recordId: null,
    action: 'deleteAll',
    after: { deleted, throughSeq: last?.seq === null ? null : Number(last?.seq), lastHash: last?.hash ?? null },
    ip,
  });
  if (last?.seq !== null && last?.seq !== undefined)
    await db.query('delete from operation_log where org_id = $1 and seq <= $2', [actor.orgId, last.seq]);
  return deleted;
}
