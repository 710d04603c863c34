import type { Queryable } from '../db/database.js';
import { one } from '../db/database.js';

/** A file kept with a record: what it is (kind), its type and bytes. */
export interface RecordFile {
  kind: string;
  contentType: string;
  content: Buffer;
  createdAt: Date;
}

/**
 * Files kept with records as they were made (a signed report's PDF): written in the transaction of the
 * step that made them, never replaced; reading one gives back exactly the bytes that were issued.
 */
export class RecordFiles {
  async put(
    tx: Queryable,
    f: {
      resource: string;
      orgId: number;
      recordId: number;
      kind: string;
      contentType: string;
      content: Buffer;
      by: number;
    },
  ): Promise<void> {
    await tx.query(
      `insert into record_file (resource, org_id, record_id, kind, content_type, content, created_by)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [f.resource, f.orgId, f.recordId, f.kind, f.contentType, f.content, f.by],
    );
  }

  /** The latest file of that kind kept with the record. */
  get(db: Queryable, resource: string, orgId: number, recordId: number, kind: string): Promise<RecordFile | undefined> {
    return one<RecordFile>(
      db,
      `select kind, content_type as "contentType", content, created_at as "createdAt" from record_file
        where resource = $1 and org_id = $2 and record_id = $3 and kind = $4 order by id desc limit 1`,
      [resource, orgId, recordId, kind],
    );
  }
}
