import type { FieldDef, ScreenSchema } from '../../../shared/screens/fields.js';
import { optionLabel } from '../../../shared/screens/fields.js';
import type { Locale } from '../../../shared/i18n/messages.js';
import { appendLog } from '../audit/log.js';
import type { Kernel } from '../context.js';
import { notFound } from '../http/envelope.js';
import type { Caller } from '../identity/actor.js';
import { recordLabelsPdf, type RecordLabel } from '../print/labels.js';
import type { ApiRecord } from './records.js';

/** One print job at most: a batch of labels for a run of boxes or tubes. */
const MAX_LABELS = 500;

/** A field's value as the label prints it: option and reference titles, not codes and ids. */
function shown(field: FieldDef | undefined, record: ApiRecord, locale: Locale): string {
  if (!field) return '';
  const value = record[field.key];
  const title = record.labels?.[field.key];
  if (title !== undefined) return Array.isArray(title) ? title.join(',') : String(title);
  if (value === undefined || value === null || value === '') return '';
  return optionLabel(field, value, locale) ?? String(value);
}

function labelOf(screen: ScreenSchema, record: ApiRecord, locale: Locale): RecordLabel[] {
  const spec = screen.resource.label!;
  const field = (key: string) => screen.fields.find((f) => f.key === key);
  // Values only, as on a tube label: a 50 mm label has no room for captions.
  const lines = (spec.lines ?? []).map((key) => shown(field(key), record, locale)).filter((v) => v !== '');
  const label = {
    title: screen.title[locale],
    code: shown(field(spec.code), record, locale),
    symbology: spec.symbology,
    lines,
  };
  const copies = spec.copies ? Math.min(Math.max(Number(record[spec.copies]) || 1, 1), 50) : 1;
  return Array.from({ length: copies }, () => label);
}

/**
 * The labels of records of a screen that declares one (resource.label): read with the caller's own
 * read permission, each print in the operation log and in the record's history.
 */
export async function printLabels(kernel: Kernel, caller: Caller, resource: string, ids: number[]): Promise<Buffer> {
  const screen = kernel.screens.byResource(resource);
  if (!screen?.resource.label || ids.length === 0) throw notFound();
  const records: ApiRecord[] = [];
  for (const id of ids.slice(0, MAX_LABELS))
    records.push((await kernel.resources.get(caller, resource, id)) as ApiRecord);
  const labels = records.flatMap((r) => labelOf(screen, r, caller.locale));
  const pdf = await recordLabelsPdf(labels, screen.title[caller.locale]);
  await logLabelPrints(kernel, caller, (kernel.screens.storageOf(screen) ?? screen).resource.name, records);
  return pdf;
}

/** Every label printed is in the operation log and in its record's history. */
export async function logLabelPrints(
  kernel: Kernel,
  caller: Caller,
  resource: string,
  records: readonly { id: number; orgId: number }[],
): Promise<void> {
  await kernel.db.transaction(async (tx) => {
    for (const r of records) {
      await appendLog(tx, caller.actor, { resource, recordId: r.id, action: 'labelPrint', ip: caller.ip });
      const event = { resource, orgId: r.orgId, recordId: r.id, kind: 'print' as const, name: 'label' };
      await kernel.events.append(tx, { ...event, actor: caller.actor, at: kernel.now() });
    }
  });
}
