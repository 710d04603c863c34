import type { ReportTemplateRecord } from '../../shared/generated/resources.js';
import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';

/** What decides a report's layout: the specimen's hospital, its items, groups and purposes. */
export interface ReportSubject {
  hospital: string;
  items: string[];
  groups: number[];
  purposes: number[];
}

/** A report's layout as the lab's settings give it; the title falls back to the caller's default. */
export interface ReportLayout {
  template?: { id: number; data: ReportTemplateRecord };
  title?: string;
  /** Images as stored by the screens (data URLs): the hospital's logo and seal. */
  logo?: string;
  seal?: string;
  /** Whether pathology pictures are printed (the hospital's choice; printed where it has none). */
  showImages: boolean;
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

async function enabledTemplate(kernel: Kernel, tx: Queryable, orgId: number, find: { id?: number; name?: string }) {
  const [template] =
    find.id !== undefined
      ? [await kernel.records.get(tx, 'reportTemplate', orgId, find.id)]
      : await kernel.records.find(tx, 'reportTemplate', orgId, { name: [find.name ?? ''] });
  return template && template.data.enabled !== false ? template : undefined;
}

/**
 * The merged report (合并报告) whose purposes hold all of the specimen's, printed under its template:
 * the one covering the fewest other purposes, as the most specific. Its "same day" rule, merging other
 * specimens of the patient, is not applied: each specimen is reported on its own.
 */
async function mergedTemplate(kernel: Kernel, tx: Queryable, orgId: number, purposes: number[]) {
  if (purposes.length === 0) return undefined;
  const merges = (await kernel.records.find(tx, 'mergedReport', orgId))
    .filter((m) => m.data.enabled !== false && m.data.template)
    .filter((m) => purposes.every((p) => (m.data.purposes ?? []).includes(p)))
    .sort((a, b) => (a.data.purposes ?? []).length - (b.data.purposes ?? []).length);
  for (const merge of merges) {
    const template = await enabledTemplate(kernel, tx, orgId, { name: text(merge.data.template) });
    if (template) return template;
  }
  return undefined;
}

/** The template 报告模板匹配 chooses: the enabled rule of highest priority whose hospital, item and group fit. */
async function matchedTemplate(kernel: Kernel, tx: Queryable, orgId: number, subject: ReportSubject) {
  const rules = (await kernel.records.find(tx, 'reportTemplateMatch', orgId))
    .filter((r) => r.data.enabled !== false && r.data.templateId)
    .filter((r) => !r.data.hospitalName || r.data.hospitalName === subject.hospital)
    .filter((r) => !r.data.professionalGroup || subject.groups.includes(r.data.professionalGroup))
    .filter((r) => !r.data.itemName || subject.items.includes(String(r.data.itemName)))
    .sort((a, b) => Number(b.data.priority ?? 0) - Number(a.data.priority ?? 0));
  for (const rule of rules) {
    const template = await enabledTemplate(kernel, tx, orgId, { id: Number(rule.data.templateId) });
    if (template) return template;
  }
  return undefined;
}

/**
 * A report's layout from the lab's settings: the template of a matching rule (a rule naming this
 * hospital or item is the lab's explicit choice), else of the merged report the purposes belong to;
 * and the hospital's personalisation (个性化设置): its own title, logo and seal, and whether pictures print.
 */
export async function reportLayout(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  subject: ReportSubject,
): Promise<ReportLayout> {
  const template =
    (await matchedTemplate(kernel, tx, orgId, subject)) ?? (await mergedTemplate(kernel, tx, orgId, subject.purposes));
  const [own] = (
    await kernel.records.find(tx, 'hospitalPersonalization', orgId, { hospitalName: [subject.hospital] })
  ).filter((p) => p.data.enabled !== false);
  return {
    template,
    title: text(own?.data.reportTitle) || text(template?.data.name) || undefined,
    logo: text(own?.data.logo) || undefined,
    seal: text(own?.data.seal) || undefined,
    showImages: own?.data.showReferenceImage !== false,
  };
}
