import { localDateTime } from '../../shared/time.js';
import type { Queryable } from '../kernel/db/database.js';
import type { Caller } from '../kernel/identity/actor.js';
import { appendLog } from '../kernel/audit/log.js';
import type { RecordStore } from '../kernel/resources/store.js';

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

/** Records the batches of an import (numbered IMP20261120001 onwards within the day), each logged. */
export async function recordBatches(
  tx: Queryable,
  records: RecordStore,
  caller: Caller,
  batches: Batch[],
  now: Date,
): Promise<string[]> {
  const { actor } = caller;
  const stamp = (d: Date) => localDateTime(d, actor.timeZone);
  // Numbers of the day are counted under the resource's lock, so two imports never take the same one.
  await records.serialize(tx, 'dataImport', actor.orgId);
  const prefix = `IMP${stamp(now).slice(0, 10).replaceAll('-', '')}`;
  let last = await records.lastNumber(tx, 'dataImport', actor.orgId, 'batchNo', prefix);
  const numbers: string[] = [];
  for (const batch of batches) {
    const batchNo = `${prefix}${String(++last).padStart(3, '0')}`;
    const row = await records.insert(
      tx,
      'dataImport',
      actor.orgId,
      {
        batchNo,
        hospital: batch.hospital,
        kind: 'dictionary',
        ...(batch.fileName && { fileName: batch.fileName.slice(0, 120) }),
        totalRows: batch.rows,
        importedRows: batch.rows,
        failedRows: 0,
        status: 'done',
        importedBy: actor.userName.slice(0, 20),
        importedAt: stamp(now),
      },
      actor.id,
    );
    await appendLog(tx, actor, {
      resource: 'dataImport',
      recordId: row.id,
      action: 'create',
      after: row.data,
      ip: caller.ip,
    });
    numbers.push(batchNo);
  }
  return numbers;
}
