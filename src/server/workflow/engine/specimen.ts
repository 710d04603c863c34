import { AsyncLocalStorage } from 'node:async_hooks';
import type { Locale } from '../../../shared/i18n/messages.js';
import type { Queryable } from '../../kernel/db/database.js';
import { one } from '../../kernel/db/database.js';
import { ApiError, badRequest, notFound } from '../../kernel/http/envelope.js';
import type { Kernel } from '../../kernel/context.js';
import type { HookRegistration } from '../../kernel/resources/hooks.js';
import { t } from '../../../shared/i18n/messages.js';
import { engineOf } from './engineOf.js';
import { getInstance, type TaskRow } from './store.js';
import { terminateByBusinessKey } from './manage.js';
import type { AuthUser } from '../../kernel/identity/actor.js';
import type { RecordStore } from '../../kernel/resources/store.js';
import type { Caller, TaskStep, WorkflowEngine } from './service.js';
import type { Caller as KernelCaller } from '../../kernel/identity/actor.js';

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

/** The specimen's steps after which it has no further work (its lifecycle's ends short of a report). */
const ENDING_STEPS = new Set(['reject', 'cancel']);
/** The steps that give a cancelled specimen its work back: its process starts again, as at its entry. */
const REOPENING_STEPS = new Set(['reinstate']);

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
  const ended = records
    .screen('specimen')
    .resource.lifecycle?.transitions.some((t) => ENDING_STEPS.has(t.name) && t.to === record.data.status);
  if (ended) throw badRequest('workflow.specimenEnded');
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
 * says so in its history, and can be started by hand later (启动流程). A specimen rejected or cancelled
 * ends its process in the same step, so its tasks leave the work lists; one reinstated starts anew.
 */
export function specimenProcesses(kernel: Kernel): HookRegistration {
  return {
    resource: 'specimen',
    order: 900,
    hooks: {
      async afterWrite(ctx, row) {
        // Rejected or cancelled, the specimen has no further work: its process ends with the step.
        if (ctx.transition && ENDING_STEPS.has(ctx.transition)) {
          const barcode = String(row.data.barcode ?? '');
          if (takenByItsProcess.getStore() !== barcode)
            await terminateByBusinessKey(ctx.tx, row.orgId, barcode, ctx.actor.id);
          return;
        }
        const reopened = ctx.transition !== undefined && REOPENING_STEPS.has(ctx.transition);
        if (ctx.via !== 'create' && ctx.via !== 'import' && !reopened) return;
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

/**
 * Completed tasks of specimens' processes are steps of the specimens' histories: who, when, which task,
 * what result. Read and written as a set (批量办理 records a tray's tasks in two statements).
 */
export async function recordTasksOnSpecimens(
  kernel: Kernel,
  actor: AuthUser,
  tasks: TaskRow[],
  result: string | undefined,
): Promise<void> {
  // A task may come with its instance's business key (read with it): else the instance is read.
  const keyed = await Promise.all(
    tasks.map(async (task) => ({
      task,
      barcode:
        task.businessKey !== undefined
          ? task.businessKey
          : (await getInstance(kernel.db, task.instanceId))?.businessKey,
    })),
  );
  // Each task's specimen is of the task's lab (a batch's tasks are all of one).
  const byBarcode = new Map<string, { id: number; orgId: number }>();
  for (const orgId of new Set(tasks.map((t) => t.orgId))) {
    const barcodes = [...new Set(keyed.flatMap((k) => (k.barcode && k.task.orgId === orgId ? [k.barcode] : [])))];
    if (barcodes.length === 0) continue;
    const specimens = await kernel.records.find(kernel.db, 'specimen', orgId, { barcode: barcodes });
    for (const s of specimens) byBarcode.set(`${orgId}:${s.data.barcode}`, s);
  }
  const at = kernel.now();
  await kernel.events.appendMany(
    kernel.db,
    keyed.flatMap(({ task, barcode }) => {
      const specimen = barcode ? byBarcode.get(`${task.orgId}:${barcode}`) : undefined;
      if (!specimen) return [];
      return [
        {
          resource: 'specimen',
          orgId: specimen.orgId,
          recordId: specimen.id,
          kind: 'task',
          name: task.name ?? task.elementId,
          actor,
          at,
          details: { result: result ?? 'pass', processInstanceId: task.instanceId },
        },
      ];
    }),
  );
}

/** The specimen steps a task may perform: the lifecycle's transitions that no capability keeps for itself. */
export function taskSteps(kernel: Kernel, locale: Locale = 'zh-CN'): { name: string; label: string }[] {
  const lifecycle = kernel.screens.owner('specimen')?.resource.lifecycle;
  return (lifecycle?.transitions ?? []).filter((t) => !t.system).map((t) => ({ name: t.name, label: t.label[locale] }));
}

/**
 * A completed task's specimen step: the specimen of the process's business key moves through the named
 * transition, stamped with the user who completed the task, in the completion's transaction. A process
 * started by hand for no specimen has no step to take; a task done again (a test repeated after its
 * review sent it back) finds the specimen where its step leads already, and leaves it there.
 */
export function specimenTaskStep(kernel: Kernel, caller: KernelCaller): TaskStep {
  return async (tx, step) => {
    if (!step.businessKey) return;
    const [specimen] = await kernel.records.find(tx, 'specimen', caller.actor.orgId, { barcode: [step.businessKey] });
    if (!specimen) return;
    const lifecycle = kernel.screens.owner('specimen')?.resource.lifecycle;
    const target = lifecycle?.transitions.find((t) => t.name === step.name)?.to;
    if (lifecycle && target !== undefined && specimen.data[lifecycle.field as 'status'] === target) return;
    await takenByItsProcess.run(step.businessKey, () =>
      kernel.resources.transition(caller, 'specimen', specimen.id, step.name, {
        tx,
        system: true,
        input: step.variables,
        details: { task: step.task },
      }),
    );
  };
}

/**
 * The barcode whose specimen step a task of its own process is taking: a model whose task rejects the
 * specimen goes on along its own path from that task, and is not ended under it.
 */
const takenByItsProcess = new AsyncLocalStorage<string>();

/** What a task list shows of each task's specimen: barcode, patient, the items ordered (purposes), state. */
export interface TaskSpecimen {
  specimenId?: number;
  barcode?: string;
  patientName?: string;
  items?: string;
  specimenStatus?: string;
}

/** The tasks of a work list, each with its specimen (the process's business key is its barcode). */
export async function withSpecimens<T extends { businessKey?: string | null }>(
  kernel: Kernel,
  orgId: number,
  tasks: T[],
): Promise<(T & TaskSpecimen)[]> {
  const barcodes = [...new Set(tasks.map((t) => t.businessKey).filter((b): b is string => !!b))];
  if (barcodes.length === 0) return tasks;
  const specimens = await kernel.records.find(kernel.db, 'specimen', orgId, { barcode: barcodes });
  const purposeIds = [...new Set(specimens.flatMap((s) => (Array.isArray(s.data.purposes) ? s.data.purposes : [])))];
  const purposes = await kernel.records.titles(kernel.db, 'inspectionPurpose', orgId, purposeIds.map(Number));
  const byBarcode = new Map(specimens.map((s) => [String(s.data.barcode), s]));
  return tasks.map((task) => {
    const specimen = task.businessKey ? byBarcode.get(task.businessKey) : undefined;
    if (!specimen) return task;
    const ordered = Array.isArray(specimen.data.purposes) ? specimen.data.purposes : [];
    return {
      ...task,
      specimenId: specimen.id,
      barcode: String(specimen.data.barcode),
      patientName: specimen.data.patientName == null ? undefined : String(specimen.data.patientName),
      items: ordered.map((id) => purposes.get(Number(id)) ?? String(id)).join('、'),
      specimenStatus: specimen.data.status == null ? undefined : String(specimen.data.status),
    };
  });
}
