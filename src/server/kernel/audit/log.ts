import type { Queryable } from '../db/database.js';
import type { AuthUser } from '../identity/actor.js';

export interface AuditEntry {
  resource: string;
  recordId: string | number | null;
  action: string;
  before?: unknown;
  after?: unknown;
  ip?: string;
}

/**
 * Appends to the operation log (domain notes: who, when, from where, before and after, for every
 * write). Called inside the write's own transaction, so a write and its log entry stand or fall together.
 */
export async function appendLog(
  db: Queryable,
  actor: Pick<AuthUser, 'id' | 'userAccount' | 'orgId'>,
  entry: AuditEntry,
): Promise<void> {
  await appendLogs(db, actor, [entry]);
}

/** Several entries of one actor in one statement (a batch of records written together), in their order. */
export async function appendLogs(
  db: Queryable,
  actor: Pick<AuthUser, 'id' | 'userAccount' | 'orgId'>,
  entries: AuditEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  // A value left undefined is absent from the JSON (SQL null); a null is kept as JSON null, as one entry stores it.
  const rows = entries.map((e) => ({
    resource: e.resource,
    recordId: e.recordId === null ? null : String(e.recordId),
    action: e.action,
    before: e.before,
    after: e.after,
    ip: e.ip ?? null,
  }));
  await db.query(
    `insert into operation_log (user_id, user_account, org_id, resource, record_id, action, before, after, ip)
     select $1, $2, $3, e->>'resource', e->>'recordId', e->>'action', e->'before', e->'after', e->>'ip'
       from jsonb_array_elements($4::jsonb) with ordinality as x(e, n)
      order by n`,
    [actor.id, actor.userAccount, actor.orgId, JSON.stringify(rows)],
  );
}

export interface LogRow {
  id: number;
  at: Date;
  userId: number | null;
  userAccount: string | null;
  orgId: number | null;
  resource: string;
  recordId: string | null;
  action: string;
  before: unknown;
  after: unknown;
  ip: string | null;
}

/** The organisation's operation log, newest first, optionally narrowed to a resource or an account. */
export async function listLog(
  db: Queryable,
  orgId: number,
  filter: { resource?: string; userAccount?: string; page: number; size: number },
): Promise<{ records: LogRow[]; total: number }> {
  const where = `org_id = $1 and ($2::text is null or resource = $2) and ($3::text is null or user_account = $3)`;
  const params = [orgId, filter.resource || null, filter.userAccount || null];
  const [count] = await db.query<{ n: number }>(`select count(*)::int as n from operation_log where ${where}`, params);
  const records = await db.query<LogRow>(
    `select id, at, user_id as "userId", user_account as "userAccount", org_id as "orgId", resource, record_id as "recordId",
            action, before, after, ip
       from operation_log where ${where} order by id desc limit $4 offset $5`,
    [...params, filter.size, (filter.page - 1) * filter.size],
  );
  return { records, total: count?.n ?? 0 };
}
