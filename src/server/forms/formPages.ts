import { formProblems, type ControlType, type FormChoice, type FormPage } from '../../shared/forms/formPage.js';
import type { Locale } from '../../shared/i18n/messages.js';
import type { Queryable } from '../kernel/db/database.js';
import { InvalidRecord } from '../kernel/http/envelope.js';
import type { FormPages } from '../kernel/ports.js';
import type { RecordStore, Stored } from '../kernel/resources/store.js';

/**
 * Form pages as a task or a caller fills them in (spec 7.6): a page with its enabled elements in order,
 * each with the choices of its data source. The workflow reads them through the kernel's port.
 */
const enabled = (row: { data: { enabled?: boolean | null } }) => row.data.enabled !== false;

/** Rows in the order a configurator gives them (no order counts as 0), then as created. */
const bySort = <T extends { id: number; data: { sort?: number | null } }>(rows: T[]) =>
  rows.sort((a, b) => (a.data.sort ?? 0) - (b.data.sort ?? 0) || a.id - b.id);

/**
 * The choices of a control: the enabled children of its data source, each labelled with its name; a
 * tree control offers every level (up to six deep), labelled with its path.
 */
function choicesOf(nodes: Stored<'treeDataSource'>[], rootId: number, deep: boolean): FormChoice[] {
  const children = new Map<number, Stored<'treeDataSource'>[]>();
  for (const node of nodes) {
    const parent = Number(node.data.parentId);
    children.set(parent, [...(children.get(parent) ?? []), node]);
  }
  const choices: FormChoice[] = [];
  const walk = (parentId: number, prefix: string, depth: number) => {
    for (const node of bySort(children.get(parentId) ?? [])) {
      const label = prefix + (node.data.dataSourceName ?? '');
      if (node.data.code != null) choices.push({ value: node.data.code, label });
      if (deep && depth < 6) walk(node.id, `${label} / `, depth + 1);
    }
  };
  walk(rootId, '', 1);
  return choices;
}

export function formPagesOf(records: RecordStore): FormPages {
  return {
    async load(db: Queryable, orgId: number, formId: number): Promise<FormPage | undefined> {
      if (!Number.isInteger(formId) || formId <= 0) return undefined;
      const form = await records.get(db, 'form', orgId, formId);
      if (!form) return undefined;
      const elements = bySort((await records.find(db, 'formElement', orgId, { formId })).filter(enabled));
      const sources = elements.some((e) => e.data.dataSourceId)
        ? (await records.find(db, 'treeDataSource', orgId)).filter(enabled)
        : [];
      return {
        id: form.id,
        pageName: form.data.pageName ?? '',
        tableName: form.data.tableName || null,
        columns: Number(form.data.columns) || 2,
        elements: elements.map(({ data }) => {
          const controlType = (data.controlType ?? 'input') as ControlType;
          const source = Number(data.dataSourceId);
          return {
            key: data.logicalName ?? '',
            label: data.label ?? '',
            controlType,
            required: data.required === true,
            numeric: data.numeric === true,
            unit: data.unit || null,
            defaultValue: data.defaultValue || null,
            choices: source ? choicesOf(sources, source, controlType === 'tree') : [],
          };
        }),
      };
    },
    check: checkFormValues,
  };
}

/** Refuses values the page does not accept, with each control's message (400, nothing written). */
export function checkFormValues(
  page: FormPage,
  values: Record<string, unknown>,
  locale: Locale,
  requireFilled = true,
): void {
  const errors = formProblems(page, values, locale, requireFilled);
  if (errors.length > 0) throw new InvalidRecord(errors);
}

/** Form pages of an organisation, by name: enabled ones only, since a task cannot show a switched-off page. */
export async function formInfos(db: Queryable, records: RecordStore, orgId: number) {
  const forms = (await records.find(db, 'form', orgId)).filter(enabled);
  const name = (f: Stored<'form'>) => f.data.pageName ?? '';
  forms.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : a.id - b.id));
  return forms.map((f) => ({ id: f.id, pageName: name(f) }));
}

/** The controls of a form page in their order, as a key → label map. */
export async function formColumns(db: Queryable, records: RecordStore, form: Stored<'form'>) {
  const elements = bySort((await records.find(db, 'formElement', form.orgId, { formId: form.id })).filter(enabled));
  return Object.fromEntries(elements.map((e) => [e.data.logicalName ?? '', e.data.label ?? '']));
}
