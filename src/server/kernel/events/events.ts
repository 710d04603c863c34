import type { Queryable } from '../db/database.js';

import type { RecordEvent } from '../../../shared/lifecycle/events.js';

export type { RecordEvent };

export interface NewEvent {
  resource: string;
  orgId: number;
  recordId: number;
  kind: RecordEvent['kind'];
  name: string;
  fromState?: string | null;
  toState?: string | null;
  actor?: { id: number; userName: string };
  orgName?: string | null;
  at: Date;
  details?: Record<string, unknown>;
}

const COLUMNS = `id::int as id, kind, name, from_state as "fromState", to_state as "toState", actor_id as "actorId",
  actor_name as "actorName", org_name as "orgName", at, details`;

/**
 * The history of records (a specimen's timeline): written in the transaction of the step it records,
 * so a step and its event exist together or not at all; never edited.
 */
export class RecordEvents {
  async append(tx: Queryable, e: NewEvent): Promise<void> {
    await this.appendMany(tx, [e]);
  }

  /** Several events in one statement (a batch of records moved together), in their order. */
  async appendMany(tx: Queryable, events: NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((e) => ({
      resource: e.resource,
      orgId: e.orgId,
      recordId: e.recordId,
      kind: e.kind,
      name: e.name,
      fromState: e.fromState ?? null,
      toState: e.toState ?? null,
      actorId: e.actor?.id ?? null,
      actorName: e.actor?.userName ?? null,
      orgName: e.orgName ?? null,
      at: e.at.toISOString(),
      details: e.details ?? {},
    }));
    await tx.query(
      `insert into record_event (resource, org_id, record_id, kind, name, from_state, to_state, actor_id, actor_name,
         org_name, at, details)
       select e->>'resource', (e->>'orgId')::int, (e->>'recordId')::bigint, e->>'kind', e->>'name', e->>'fromState',
              e->>'toState', (e->>'actorId')::int, e->>'actorName', e->>'orgName', (e->>'at')::timestamptz, e->'details'
         from jsonb_array_elements($1::jsonb) with ordinality as x(e, n)
        order by n`,
      [JSON.stringify(rows)],
    );
  }

  /** The state a record was in before the last step that put it in `state`, when its history tells. */
  async stateBefore(db: Queryable, resource: string, orgId: number, recordId: number, state: string) {
    const rows = await db.query<{ fromState: string | null }>(
      `select from_state as "fromState" from record_event where resource = $1 and org_id = $2 and record_id = $3
         and kind = 'transition' and to_state = $4 order by at desc, id desc limit 1`,
      [resource, orgId, recordId, state],
    );
    return rows[0]?.fromState ?? undefined;
  }

  /** A record's events, oldest first. */
  list(db: Queryable, resource: string, orgId: number, recordId: number): Promise<RecordEvent[]> {
    return db.query<RecordEvent>(
      `select ${COLUMNS} from record_event where resource = $1 and org_id = $2 and record_id = $3 order by at, id`,
      [resource, orgId, recordId],
    );
  }
}
