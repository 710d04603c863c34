import type { Database, Listening, Queryable } from './database.js';
import { tablesWritten } from './writes.js';

/** The channel migration 25's statement triggers notify on: some table of lab data was written. */
export const WRITE_CHANNEL = 'lims_write';

/** Sign-in sessions move every few seconds of use, and no kept answer shows them (the session cache judges tokens). */
const UNSHOWN = new Set(['session_token']);
const shownWrites = (sql: string) => tablesWritten(sql).filter((table) => !UNSHOWN.has(table));

/** A bound on the answers one process keeps; past it the oldest are forgotten. */
const MOST_ANSWERS = 5_000;

/**
 * What an answer is made of, when that is known to be a few tables and no clock: it is kept across writes
 * of other tables (a sign-in writes its log, not the menus), for as long as `mostAgeMs`.
 */
export interface Shape {
  tables: readonly string[];
  mostAgeMs: number;
}

/** A read under way; spoiled once a write it may predate is heard, it is not kept. */
interface Reading {
  promise: Promise<unknown>;
  shape?: Shape;
  spoiled: boolean;
}

interface Kept {
  value: unknown;
  wall: number;
  lab: number;
  shape?: Shape;
}

/**
 * Answers of the busiest reads (the signed-in user, the pages of the generic lists), kept until the
 * next write of lab data (issue 23): fifty users at the bench asking for the same pages queued behind
 * the one embedded connection. The database stays the judge, as for sessions: migration 25's triggers
 * notify after every statement that writes a table (sessions aside), every process LISTENs and forgets
 * all it keeps, and this process forgets at once on its own write statements and at each commit, before
 * its caller answers. A read that a write overtook is not kept (it may predate the write); nothing is
 * kept while notices cannot be heard. An answer made of a few tables alone (a user's menu) is kept
 * across writes of others, each notice naming its table. Kept values are shared: callers must not change them.
 */
export class ReadCache {
  private readonly answers = new Map<string, Kept>();
  /** Answers with a shape, apart: a write of one table forgets the others at once, and only these are looked through. */
  private readonly shaped = new Map<string, Kept>();
  /** Reads under way, shared by the callers asking the same while no write came between. */
  private readonly reading = new Map<string, Reading>();
  private listening: Listening | undefined;

  /**
   * @param mostAgeMs An answer older than this, by the wall clock or by the lab's, is read afresh: some
   * answers are of the clock as well as of the data (an account locked until a time, a record's age).
   */
  constructor(
    private readonly db: Database,
    private readonly labNow: () => Date,
    private readonly mostAgeMs: number,
  ) {}

  async start(): Promise<void> {
    // A notice names the table written; a gap in them may have hidden any.
    this.listening = await this.db.listen(
      WRITE_CHANNEL,
      (table) => this.forget([table]),
      () => this.forget(),
    );
  }

  async close(): Promise<void> {
    await this.listening?.close();
    this.listening = undefined;
    this.forget();
  }

  /**
   * Kept answers are read afresh next time: all of them (what shapes answers changed, or writes may have
   * gone unheard), or, when `tables` were written, all but those shaped by other tables alone.
   */
  forget(tables?: readonly string[]): void {
    if (tables?.length === 0) return;
    const shows = (shape?: Shape) => !tables || !shape || shape.tables.some((t) => tables.includes(t));
    for (const [key, under] of this.reading)
      if (shows(under.shape)) {
        under.spoiled = true;
        this.reading.delete(key);
      }
    this.answers.clear();
    if (!tables) return this.shaped.clear();
    for (const [key, kept] of this.shaped) if (shows(kept.shape)) this.shaped.delete(key);
  }

  /**
   * The answer kept under `key`, or `load`'s, kept until lab data is next written; with `shape`, until one
   * of its tables is. A read that such a write overtook is not kept: it may predate the write.
   */
  async read<T>(key: string, load: () => Promise<T>, shape?: Shape): Promise<T> {
    if (!this.listening?.listening || this.mostAgeMs === 0) {
      // Deaf, writes may go unheard: what was kept before must not outlive it.
      if (this.answers.size + this.shaped.size > 0) this.forget();
      return load();
    }
    const wall = performance.now();
    const lab = this.labNow().getTime();
    const kept = (shape ? this.shaped : this.answers).get(key);
    const age = shape?.mostAgeMs ?? this.mostAgeMs;
    if (kept && wall - kept.wall < age && Math.abs(lab - kept.lab) < age) return kept.value as T;
    const under = this.reading.get(key);
    if (under) return under.promise as Promise<T>;
    const reading: Reading = { promise: load(), shape, spoiled: false };
    this.reading.set(key, reading);
    try {
      const value = (await reading.promise) as T;
      if (!reading.spoiled) this.keep(key, { value, wall, lab, shape });
      return value;
    } finally {
      if (this.reading.get(key) === reading) this.reading.delete(key);
    }
  }

  private keep(key: string, kept: Kept): void {
    const answers = kept.shape ? this.shaped : this.answers;
    answers.delete(key);
    if (answers.size >= MOST_ANSWERS) answers.delete(answers.keys().next().value as string);
    answers.set(key, kept);
  }

  /**
   * The database as this process's code uses it, forgetting on its own writes before they are
   * answered: the notice of one's own commit comes back a few milliseconds later on PostgreSQL. Once
   * when the statement runs (a read under way may have seen it) and again at commit. Writes made by
   * a function called in a select are heard by their notice alone.
   */
  watching(db: Database): Database {
    // `wrote` is told the tables a statement wrote, or nothing when it cannot tell (a script).
    const watched = (q: Queryable, wrote: (tables?: string[]) => void): Queryable => ({
      query: async <Row>(sql: string, params?: unknown[]) => {
        const tables = shownWrites(sql);
        if (tables.length === 0) return q.query<Row>(sql, params);
        try {
          return await q.query<Row>(sql, params);
        } finally {
          wrote(tables);
        }
      },
      exec: async (sql) => {
        try {
          await q.exec(sql);
        } finally {
          wrote();
        }
      },
    });
    const now = (tables?: string[]) => this.forget(tables);
    return {
      ...db,
      ...watched(db, now),
      transaction: async (fn) => {
        // The tables the transaction wrote (each once: a long one writes the same few again and again), or
        // undefined once a statement could not tell.
        let written: string[] | undefined = [];
        try {
          return await db.transaction((tx) =>
            fn(
              watched(tx, (tables) => {
                written = tables && written ? [...new Set([...written, ...tables])] : undefined;
                now(tables);
              }),
            ),
          );
        } finally {
          now(written);
        }
      },
      close: () => db.close(),
      listen: (channel, onNotice, onGap) => db.listen(channel, onNotice, onGap),
    };
  }
}
