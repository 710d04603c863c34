import type { Queryable } from '../db/database.js';

/**
 * The operation log is a hash chain per organisation (migration 11): each entry has its place (seq),
 * the hash of the entry before it and its own hash over both. The database's trigger extends the chain
 * on every append, holding a lock per organisation to the end of the transaction. Here: the same lock
 * for a writer that must see the chain stand still (emptying the log), and the check of the chain.
 *
 * What the chain proves: an entry edited, removed or inserted in the middle breaks it where it stood.
 * What it cannot: entries cut from the end, or a chain recomputed whole by someone who can also change
 * the hash function in the database; an exported copy of the last hash (the checkpoint) guards that.
 */
const CHAIN_LOCK = 720_402;

/** Appends in the organisation wait for this transaction (the trigger takes the same lock). */
export async function lockChain(db: Queryable, orgId: number): Promise<void> {
  await db.query('select pg_advisory_xact_lock($1, $2)', [CHAIN_LOCK, orgId]);
}

/** The first entry whose link does not hold, and why. */
export interface BrokenLink {
  orgId: number | null;
  seq: number;
  id: number;
  reason: 'hash' | 'previous' | 'gap' | 'start';
}

export interface ChainReport {
  /** Entries checked, in every organisation. */
  entries: number;
  organisations: number;
  /** The first broken link, by organisation then place in its log; undefined when every link holds. */
  broken?: BrokenLink;
}

/**
 * Recomputes every entry's hash and compares each link with the entry before it. An organisation's
 * log starts at seq 1 with no previous hash, or at the checkpoint that emptied the log before it
 * (deleteAll), which keeps the last hash of what it removed.
 */
export async function verifyChain(db: Queryable, orgId?: number): Promise<ChainReport> {
  const [report] = await db.query<{ entries: number; organisations: number; broken: BrokenLink | null }>(
    `with links as (
       select l.org_id, l.seq, l.id, l.hash, l.prev_hash, l.resource, l.action,
              operation_log_hash(l.prev_hash, l) as expected,
              lag(l.seq) over w as before_seq, lag(l.hash) over w as before_hash
         from operation_log l
        where $1::int is null or l.org_id = $1
       window w as (partition by l.org_id order by l.seq)
     ), judged as (
       select org_id, seq, id,
              case when hash is distinct from expected then 'hash'
                   when before_seq is null and not (seq = 1 and prev_hash is null)
                        and not (resource = 'operationLog' and action = 'deleteAll') then 'start'
                   when before_seq is not null and seq <> before_seq + 1 then 'gap'
                   when before_seq is not null and prev_hash is distinct from before_hash then 'previous'
              end as reason
         from links
     )
     select (select count(*) from judged)::int as entries,
            (select count(distinct coalesce(org_id, -1)) from judged)::int as organisations,
            (select json_build_object('orgId', org_id, 'seq', seq, 'id', id, 'reason', reason)
               from judged where reason is not null order by org_id nulls first, seq limit 1) as broken`,
    [orgId ?? null],
  );
  return {
    entries: report?.entries ?? 0,
    organisations: report?.organisations ?? 0,
    ...(report?.broken && { broken: report.broken }),
  };
}
