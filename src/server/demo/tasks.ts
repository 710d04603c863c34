import type { FormPage } from '../../shared/forms/formPage.js';
import type { Staff } from './api.js';

/**
 * The work list of the demo's general inspection flow (标本接收 → 上机检验 → 审核, deployed on the lab's
 * first start): a specimen of a routine panel starts it when registered, and the generator's staff work
 * its tasks as a user does from the work list: claim, fill in the task's form, complete. Receipt and
 * testing are done at the bench when the tube arrives, the audit task after the results are signed.
 */
export const PROCESS = 'general_inspection';

export interface OpenTask {
  id: string;
  name: string;
  businessKey: string | null;
}

type Values = Record<string, string | number>;

/** Tasks a batch completion takes at most (workflow/engine/batch.ts). */
const BATCH_LIMIT = 200;

/** Stable pick from a list by a text (a barcode): the same specimen gets the same answer. */
const pick = <T>(list: T[], by: string): T => {
  let h = 0;
  for (const c of by) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return list[h % list.length]!;
};

export class WorkList {
  /** Task forms by task name: each step's form page read once. */
  private readonly forms = new Map<string, FormPage | null>();

  /** The open tasks of one step for some specimens (by barcode), as the worker's list shows them. */
  async open(who: Staff, step: string, barcodes: ReadonlySet<string>): Promise<OpenTask[]> {
    const list = await who.get<OpenTask[]>(`/api/workflow/task/todo?processKey=${PROCESS}`);
    return list.filter((t) => t.name === step && t.businessKey !== null && barcodes.has(t.businessKey));
  }

  /** Claimed, its form filled (the values given, the rest chosen as a user would), and completed. */
  async work(who: Staff, task: OpenTask, values: Values = {}, result?: string): Promise<void> {
    await who.post(`/api/workflow/task/${task.id}/claim`);
    const variables = this.fill(await this.formOf(who, task), String(task.businessKey), values);
    await who.post(`/api/workflow/task/${task.id}/complete`, { variables, ...(result && { result }) });
  }

  /**
   * The bulk mode's way (批量办理): tasks of one step completed together, those whose forms are filled
   * alike in one call each (the server's limit a call), without claiming them first. `valuesOf` gives
   * a task's own values (the analyser its tube went on).
   */
  async workMany(
    who: Staff,
    tasks: OpenTask[],
    valuesOf: (task: OpenTask) => Values = () => ({}),
    result?: 'pass' | 'unpass',
  ): Promise<void> {
    if (tasks.length === 0) return;
    const form = await this.formOf(who, tasks[0]!);
    const alike = new Map<string, { variables: Values; ids: string[] }>();
    for (const task of tasks) {
      const variables = this.fill(form, String(task.businessKey), valuesOf(task));
      const key = JSON.stringify(variables);
      const group = alike.get(key) ?? { variables, ids: [] };
      group.ids.push(task.id);
      alike.set(key, group);
    }
    for (const { variables, ids } of alike.values())
      for (let i = 0; i < ids.length; i += BATCH_LIMIT)
        await who.post('/api/workflow/task/batchComplete', {
          taskIds: ids.slice(i, i + BATCH_LIMIT),
          variables,
          ...(result && { result }),
        });
  }

  private async formOf(who: Staff, task: OpenTask): Promise<FormPage | null> {
    if (!this.forms.has(task.name))
      this.forms.set(task.name, (await who.get<{ form: FormPage | null }>(`/api/workflow/task/${task.id}`)).form);
    return this.forms.get(task.name)!;
  }

  /** Every required control answered: a choice of its list, a count, or a short note; optional ones only when given. */
  private fill(form: FormPage | null, barcode: string, values: Values): Values {
    const filled: Values = {};
    for (const e of form?.elements ?? []) {
      const given = values[e.key];
      if (given !== undefined) filled[e.key] = given;
      else if (!e.required) continue;
      else if (e.choices.length > 0) filled[e.key] = pick(e.choices, barcode).value;
      else if (e.controlType === 'number' || e.numeric) filled[e.key] = 1;
      else filled[e.key] = e.defaultValue ?? '无';
    }
    return filled;
  }
}
