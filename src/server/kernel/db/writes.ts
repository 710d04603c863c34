// insert into t / update t / delete from t, wherever they stand in a statement (CTEs included), but
// not "for update" row locks nor "on conflict do update".
const WRITE = /\b(?:insert\s+into|(?<!\b(?:for|do)\s+)update|delete\s+from)\s+"?([a-z_][a-z0-9_]*)/gi;

/** The tables a statement writes, as its text names them (lower case, in order, repeats kept). */
export function tablesWritten(sql: string): string[] {
  return [...sql.matchAll(WRITE)].map(([, table]) => table!.toLowerCase());
}
