import type { ScreenSchema } from '../../shared/screens/fields.js';
import type { RecordValues } from '../../shared/screens/predicate.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import type { Queryable } from '../kernel/db/database.js';
import { InvalidRecord } from '../kernel/http/envelope.js';
import { appendLog } from '../kernel/audit/log.js';
import { insertRecord } from '../kernel/resources/repository.js';
import { lockScope } from '../kernel/resources/routes.js';
import { checkWrite, writableData } from '../kernel/resources/records.js';

/**
 * Each accepted import is recorded as a batch of 数据导入管理 (the dataImport screen): its number, the
 * hospital whose codes came in, the file, the counts, who and when. A refused import records nothing:
 * nothing was imported.
 */
export interface Batch {
  hospital: number;
  rows: number;
  fileName?: string;
}

/** Local time as the screens write a datetime: YYYY-MM-DD HH:mm:ss. */
const stamp = (d: Date) =>
  new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19).replace('T', ' ');

/** The next batch number of the day, IMP20261120001 onwards, as the demo's batches are numbered. */
async function nextBatchNo(db: Queryable, screen: ScreenSchema, orgId: number, now: Date): Promise<string> {
  const prefix = `IMP${stamp(now).slice(0, 10).replaceAll('-', '')}`;
  const [row] = await db.query<{ last: string | null }>(
    `select max(data->>'batchNo') as last from resource_record where resource = $1 and org_id = $2 and data->>'batchNo' ~ ('^' || $3 || '[0-9]{3}$')`,
    [screen.resource.name, orgId, prefix],
  );
  return `${prefix}${String(Number(row?.last?.slice(prefix.length) ?? 0) + 1).padStart(3, '0')}`;
}

/** Records the batches of an import, each checked and logged like a record the screen creates. */
export async function recordBatches(
  db: Queryable,
  screen: ScreenSchema,
  actor: AuthUser,
  batches: Batch[],
  now: Date,
  ip: string,
  locale: 'zh-CN' | 'en-US',
): Promise<string[]> {
  await lockScope(db, screen, actor.orgId);
  const numbers: string[] = [];
  for (const batch of batches) {
    const values: RecordValues = {
      batchNo: await nextBatchNo(db, screen, actor.orgId, now),
      hospital: batch.hospital,
      kind: 'dictionary',
      ...(batch.fileName && { fileName: batch.fileName.slice(0, 120) }),
      totalRows: batch.rows,
      importedRows: batch.rows,
      failedRows: 0,
      status: 'done',
      importedBy: actor.userName.slice(0, 20),
      importedAt: stamp(now),
    };
    const data = writableData(screen, values);
    const errors = await checkWrite(db, screen, actor.orgId, data, 0, locale);
    if (errors.length > 0) throw new InvalidRecord(errors);
    const row = await insertRecord(db, screen, actor.orgId, data, actor.id);
    await appendLog(db, actor, {
      resource: screen.resource.name,
      recordId: row.id,
      action: 'create',
      after: row.data,
      ip,
    });
    numbers.push(String(values.batchNo));
  }
  return numbers;
}
