import type { FastifyInstance } from 'fastify';
import { afterCommit } from '../db/afterCommit.js';
import type { Database, Queryable } from '../db/database.js';
import { one } from '../db/database.js';

/** A file kept with a record: what it is (kind), its type and bytes. */
export interface RecordFile {
  kind: string;
  contentType: string;
  content: Buffer;
  createdAt: Date;
}

interface FileOf {
  resource: string;
  orgId: number;
  recordId: number;
  kind: string;
  contentType: string;
  by: number;
}

/**
 * Draws a file from what its step kept (a report's content as issued), dated when the step made it,
 * however long after the file is drawn: a capability's, by name.
 */
export type FileDrawer = (input: unknown, madeAt: Date) => Promise<Buffer>;

interface Pending {
  id: number;
  resource: string;
  orgId: number;
  recordId: number;
  kind: string;
  contentType: string;
  drawer: string;
  input: unknown;
  by: number | null;
  createdAt: Date;
}

const PENDING = `select id, resource, org_id as "orgId", record_id as "recordId", kind, content_type as "contentType",
  drawer, input, created_by as "by", created_at as "createdAt" from record_file_pending`;

/**
 * Files kept with records as they were made (a signed report's PDF), never replaced; reading one gives
 * back exactly the bytes that were issued. A file may be put in the transaction of the step that made
 * it, or deferred: the step keeps what to draw it from, and the file is drawn in the background once
 * the step's transaction is committed (drawSoon), so a slow drawing never holds the database inside a
 * step nor the answer to it (an approver signing fifty specimens does not wait for fifty PDFs). A
 * deferred file not yet drawn is drawn when first read, and its row outlives a stop of the process.
 */
export class RecordFiles {
  private readonly drawers = new Map<string, FileDrawer>();
  /** Told of a deferred file that could not be drawn (it stays pending, to be tried again). */
  onDrawError: (error: unknown) => void = () => undefined;
  /** The background round of drawing under way, and whether files were deferred since it began. */
  private round: Promise<void> | undefined;
  private again = false;

  constructor(private readonly db: Database) {}

  async put(tx: Queryable, f: FileOf & { content: Buffer }): Promise<void> {
    await tx.query(
      `insert into record_file (resource, org_id, record_id, kind, content_type, content, created_by)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [f.resource, f.orgId, f.recordId, f.kind, f.contentType, f.content, f.by],
    );
  }

  /** A capability's way of drawing deferred files of its own. */
  drawWith(name: string, drawer: FileDrawer): void {
    this.drawers.set(name, drawer);
  }

  /**
   * Keeps, in the step's transaction, what the file will be drawn from, and has it drawn in the
   * background once that transaction is committed, whichever capability began it.
   */
  async defer(tx: Queryable, f: FileOf & { drawer: string; input: unknown }): Promise<void> {
    if (!this.drawers.has(f.drawer)) throw new Error(`no drawer named ${f.drawer}`);
    await tx.query(
      `insert into record_file_pending (resource, org_id, record_id, kind, content_type, drawer, input, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [f.resource, f.orgId, f.recordId, f.kind, f.contentType, f.drawer, JSON.stringify(f.input), f.by],
    );
    afterCommit(async () => this.drawSoon());
  }

  /**
   * Draws every pending file in the background, one round at a time: asked again while a round runs
   * (another step committed meanwhile), another round follows it, so no file waits for the next step.
   */
  drawSoon(): void {
    if (this.round) {
      this.again = true;
      return;
    }
    this.round = (async () => {
      do {
        this.again = false;
        await this.drawPending().catch(this.onDrawError);
      } while (this.again);
    })().finally(() => {
      this.round = undefined;
    });
  }

  /** Resolves once the background drawing is done (a stop waits for it, so nothing is drawn twice). */
  async idle(): Promise<void> {
    while (this.round) await this.round;
  }

  /**
   * Draws every deferred file of committed steps, oldest first, a page at a time; answers how many it
   * drew. Each file is drawn outside any transaction and stored in a short one of its own.
   */
  async drawPending(): Promise<number> {
    let drawn = 0;
    for (;;) {
      const page = await this.db.query<Pending>(`${PENDING} order by id limit 20`);
      let progress = 0;
      for (const row of page) {
        try {
          if (await this.draw(row)) drawn++;
          progress++;
        } catch (error) {
          this.onDrawError(error);
        }
      }
      // A page none of which could be drawn is left for the next try rather than tried again now.
      if (page.length < 20 || progress === 0) return drawn;
    }
  }

  /** The latest file of that kind kept with the record, drawn now if it is still pending. */
  async get(
    db: Queryable,
    resource: string,
    orgId: number,
    recordId: number,
    kind: string,
  ): Promise<RecordFile | undefined> {
    const kept = () =>
      one<RecordFile>(
        db,
        `select kind, content_type as "contentType", content, created_at as "createdAt" from record_file
          where resource = $1 and org_id = $2 and record_id = $3 and kind = $4 order by id desc limit 1`,
        [resource, orgId, recordId, kind],
      );
    const pending = await this.db.query<Pending>(
      `${PENDING} where resource = $1 and org_id = $2 and record_id = $3 and kind = $4 order by id`,
      [resource, orgId, recordId, kind],
    );
    for (const row of pending) await this.draw(row);
    return kept();
  }

  /**
   * Draws one deferred file and moves it into record_file, dated when its step made it. Another process
   * (or request) may draw the same row meanwhile: whoever removes the pending row stores the file.
   */
  private async draw(row: Pending): Promise<boolean> {
    const drawer = this.drawers.get(row.drawer);
    if (!drawer) throw new Error(`no drawer named ${row.drawer} for ${row.resource} ${row.recordId}`);
    const content = await drawer(row.input, row.createdAt);
    return this.db.transaction(async (tx) => {
      const [taken] = await tx.query(`delete from record_file_pending where id = $1 returning id`, [row.id]);
      if (!taken) return false;
      await tx.query(
        `insert into record_file (resource, org_id, record_id, kind, content_type, content, created_by, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [row.resource, row.orgId, row.recordId, row.kind, row.contentType, content, row.by, row.createdAt],
      );
      return true;
    });
  }
}

/**
 * Deferred files a stopped process left undrawn (its steps committed, their drawing not done) are
 * drawn once the server answers, in the background; a stop waits for the drawing under way.
 */
export function drawLeftFilesWhenListening(app: FastifyInstance, files: RecordFiles) {
  files.onDrawError = (error) => app.log.error({ err: error }, 'files: a deferred file could not be drawn');
  app.addHook('onListen', async () => {
    files.drawSoon();
  });
  app.addHook('preClose', async () => {
    await files.idle();
  });
}
