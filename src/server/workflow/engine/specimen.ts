import type { Locale } from '../../../shared/i18n/messages.js';
import type { Queryable } from '../../kernel/db/database.js';
import { one } from '../../kernel/db/database.js';
import { ApiError, badRequest, notFound } from '../../kernel/http/envelope.js';
import type { Kernel } from '../../kernel/context.js';
import type { HookRegistration } from '../../kernel/resources/hooks.js';
import { t } from '../../../shared/i18n/messages.js';
import { engineOf } from './engineOf.js';
import { getInstance, type TaskRow } from './store.js';
import type { AuthUser } from '../../kernel/identity/actor.js';
import type { RecordStore } from '../../kernel/resources/store.js';
import type { Caller, WorkflowEngine } from './service.js';

/**
 * Specimens start process instances: a specimen, whichever screen entered it, starts the newest
 * deployed model of its category (spec 3 categories 1-5, read from its inspection purposes), with the
 * barcode as business key and the record's values as variables; one running instance per barcode.
 */
const CATEGORY_NAMES: Record<string, Record<Locale, string>> = {
  '1': { 'zh-CN': '普检', 'en-US': 'General inspection' },
  '2': { 'zh-CN': '特检', 'en-US': 'Special inspection' },
  '3': { 'zh-CN': '组织病理', 'en-US': 'Histopathology' },
  '4': { 'zh-CN': '细胞病理', 'en-US': 'Cytopathology' },
  '5': { 'zh-CN': '微生物', 'en-US': 'Microbiology' },
};

const categoryName = (category: string, locale: Locale) => CATEGORY_NAMES[category]?.[locale] ?? category;

/** The one category of the specimen's inspection purposes; refused when it has none or several. */
async function categoryOf(db: Queryable, records: RecordStore, orgId: number, purposes: unknown, locale: Locale) {
  const ids = (Array.isArray(purposes) ? purposes : [purposes]).map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const rows = await records.byIds(db, 'inspectionPurpose', orgId, ids);
  const categories = [
    ...new Set(
      rows
        .map((r) => r.data.category)
        .filter((c) => c != null)
        .map(String),
    ),
  ].sort();
  if (categories.length === 0) throw badRequest('workflow.specimenNoCategory');
  if (categories.length > 1)
    throw badRequest('workflow.specimenCategories', {
      categories: categories.map((c) => categoryName(c, locale)).join('、'),
    });
  return categories[0]!;
}

export async function startForSpecimen(
  db: Queryable,
  records: RecordStore,
  engine: WorkflowEngine,
  caller: Caller,
  recordId: number,
  locale: Locale,
) {
  const record = await records.get(db, 'specimen', caller.orgId, recordId);
  if (!record) throw notFound();
  const barcode = String(record.data.barcode ?? '').trim();
  if (!barcode) throw badRequest('common.invalid');
  const category = await categoryOf(db, records, caller.orgId, record.data.purposes, locale);
  const deployment = await one<{ id: string; key: string; name: string }>(
    db,
    `select d.id, d.key, d.name from process_deployment d join process_model m on m.id = d.model_id
      where d.org_id = $1 and m.category = $2 order by d.deployed_at desc, d.version desc limit 1`,
    [caller.orgId, Number(category)],
  );
  if (!deployment) throw badRequest('workflow.noCategoryModel', { category: categoryName(category, locale) });
  const processInstanceId = await engine.start(caller, {
    deploymentId: deployment.id,
    businessKey: barcode,
    variables: { ...record.data, barcode, specimenId: recordId },
    onePerBusinessKey: true,
  });
  return { processInstanceId, processKey: deployment.key, processName: deployment.name, businessKey: barcode };
}

/**
 * Every new specimen starts its process once its entry is committed (the engine runs transactions of
 * its own). Entry never fails for it: a specimen whose category has no deployed model, or none at all,
 * says so in its history, and can be started by hand later (启动流程).
 */
export function specimenProcesses(kernel: Kernel): HookRegistration {
  return {
    resource: 'specimen',
    order: 900,
    hooks: {
      async afterWrite(ctx, row) {
        if (ctx.via !== 'create' && ctx.via !== 'import') return;
        const { actor, locale } = ctx;
        ctx.afterCommit(async () => {
          const event = {
            resource: 'specimen',
            orgId: row.orgId,
            recordId: row.id,
            kind: 'workflow',
            actor,
            at: kernel.now(),
          };
          try {
            const started = await startForSpecimen(kernel.db, kernel.records, engineOf(kernel), actor, row.id, locale);
            await kernel.events.append(kernel.db, { ...event, name: 'started', details: { ...started } });
          } catch (error) {
            const reason = error instanceof ApiError ? t(error.key, locale, error.vars) : String(error);
            await kernel.events.append(kernel.db, { ...event, name: 'notStarted', details: { reason } });
          }
        });
      },
    },
  };
}

/** A completed task of a specimen's process is a step of the specimen's history: who, when, which task, what result. */
export async function recordTaskOnSpecimen(kernel: Kernel, actor: AuthUser, task: TaskRow, result: string | undefined) {
  const instance = await getInstance(kernel.db, task.instanceId);
  const barcode = instance?.businessKey;
  if (!barcode) return;
  const [specimen] = await kernel.records.find(kernel.db, 'specimen', task.orgId, { barcode: [barcode] });
  if (!specimen) return;
  await kernel.events.append(kernel.db, {
    resource: 'specimen',
    orgId: specimen.orgId,
    recordId: specimen.id,
    kind: 'task',
    name: task.name ?? task.elementId,
    actor,
    at: kernel.now(),
    details: { result: result ?? 'pass', processInstanceId: task.instanceId },
  });
}
