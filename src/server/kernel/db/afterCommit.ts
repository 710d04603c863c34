import { AsyncLocalStorage } from 'node:async_hooks';

/** Work to do once a transaction is committed: steps with transactions of their own, news to browsers. */
export type CommitJob = () => Promise<void>;

/**
 * The jobs of the transaction whose body is running. Kept with the body's async flow, not with a `tx`
 * object: the database is wrapped on its way to the handlers (watched writes, session cache), each
 * wrapper handing out a transaction object of its own, and a write nested in another capability's
 * transaction must still reach the jobs of the transaction that commits it.
 */
const running = new AsyncLocalStorage<CommitJob[]>();

/**
 * Runs a transaction (the driver's `begin`), then, once it is committed, the jobs its writes asked for,
 * in order. A job that fails is the job's own to record, never the transaction's: it is committed.
 * A transaction that fails runs none.
 */
export async function committing<T>(begin: () => Promise<T>): Promise<T> {
  const jobs: CommitJob[] = [];
  const value = await running.run(jobs, begin);
  for (const job of jobs) await job().catch(() => undefined);
  return value;
}

/**
 * Asks for a job once the transaction running now is committed, however deeply the write asking for it
 * is nested (a specimen moved by a handover, a result's approval, a task). Outside any transaction
 * the write is committed already, and the job starts at once.
 */
export function afterCommit(job: CommitJob): void {
  const jobs = running.getStore();
  if (jobs) jobs.push(job);
  else void job().catch(() => undefined);
}
