import { verdictOf, type AuditRule, type Verdict } from '../../shared/results/autoVerify.js';
import { interpret, numericValue, type ItemRules } from '../../shared/results/interpret.js';
import type { Queryable } from '../kernel/db/database.js';
import { dictionaryEntries } from '../kernel/dictionaries/lookup.js';
import type { Kernel } from '../kernel/context.js';
import { findForLogin } from '../kernel/identity/accounts.js';
import type { HookRegistration, WriteContext } from '../kernel/resources/hooks.js';
import { groupMembers, requireAuthority } from './authority.js';
import { RESULT_MESSAGES, refused, say } from './messages.js';
import { once } from '../kernel/db/perTransaction.js';
import { itemOf } from './items.js';

type Data = Record<string, unknown>;

/**
 * The previous result of the item for the patient (same name and sex), approved, for the delta check:
 * the newest two off the patient-name index (one may be this result itself), not every result of the
 * name, which in a lab of millions of results is thousands of rows at each entry for a common name.
 */
async function previousResult(kernel: Kernel, tx: Queryable, orgId: number, id: number | undefined, data: Data) {
  const rows = await kernel.records.find(
    tx,
    'inspectionResult',
    orgId,
    {
      patientName: [String(data.patientName ?? '')],
      item: [Number(data.item)],
      sex: data.sex == null ? null : [String(data.sex)],
      status: ['audited', 'published'],
    },
    { orderBy: 'testedAt', order: 'desc', limit: 2 },
  );
  const earlier = rows.find((r) => r.id !== id);
  const value = earlier ? numericValue(String(earlier.data.result ?? '')) : undefined;
  if (!earlier || value === undefined) return undefined;
  return { value, at: new Date(String(earlier.data.testedAt).replace(' ', 'T')) };
}

/** The entries of a qualitative item's result dictionary (none for other items): what may be entered. */
async function resultCodes(
  tx: Queryable,
  orgId: number,
  item: { resultType?: unknown; resultDictionary?: unknown } = {},
) {
  if (item.resultType !== 'qualitative' || !item.resultDictionary) return [];
  const entries = await dictionaryEntries(tx, orgId, String(item.resultDictionary));
  return [...entries].map(([value, label]) => ({ value, label }));
}

const verdicts = new WeakMap<WriteContext, Verdict>();

/** What the audit rules say of the result, in words kept on it (the rules that hold it, or the one that approves it). */
function verdictText(v: Verdict, ctx: WriteContext): string {
  if (v.kind === 'auto') return say(RESULT_MESSAGES.autoVerified, ctx.locale, { rule: v.by!.name });
  if (v.kind === 'hold')
    return say(RESULT_MESSAGES.held, ctx.locale, {
      rules: v.fired.map((r) => r.message || r.name).join('；'),
    });
  return '';
}

/**
 * Entering a result (the record step): the tester must have the authority to test the item's group;
 * the server interprets the value (rounding, unit, reference range, H/L, critical) and applies the audit
 * rules (delta check, hold, auto-verify). A new value clears an earlier critical acknowledgement.
 */
async function interpretEntry(ctx: WriteContext, data: Data): Promise<Data> {
  const { tx, kernel, actor, locale, current } = ctx;
  await requireAuthority(kernel, tx, actor, data.professionalGroup as number, 'canTest', locale);
  const item = await itemOf(kernel, tx, actor.orgId, Number(data.item));
  const barcode = String(data.barcode);
  // The tube's type (reference ranges may depend on it), which no step of its results changes.
  const specimenType = await once(tx, `specimenType:${barcode}`, async () => {
    const [specimen] = await kernel.records.find(tx, 'specimen', actor.orgId, { barcode: [barcode] });
    return specimen?.data.specimenType;
  });
  const patient = { sex: data.sex as string, age: data.age as number, specimenType };
  const itemRules = (item?.data ?? {}) as ItemRules;
  const codes = await once(tx, `codes:${Number(data.item)}`, () => resultCodes(tx, actor.orgId, item?.data));
  const read = interpret(String(data.result ?? ''), itemRules, patient, codes);
  const about = { item: String(item?.data.name ?? ''), codes: codes.map((c) => `${c.value} ${c.label}`).join('、') };
  if ('error' in read) refused(RESULT_MESSAGES[read.error], locale, about, 'result');
  const rules = await once(tx, `rules:${Number(data.item)}`, async () =>
    (await kernel.records.find(tx, 'auditRule', actor.orgId, { item: [Number(data.item)] }))
      .filter((r) => r.data.enabled !== false)
      .map((r) => r.data as unknown as AuditRule),
  );
  const previous = await previousResult(kernel, tx, actor.orgId, current?.id, data);
  const value = numericValue(read.result);
  const verdict = verdictOf(rules, { value, critical: read.critical, previous, now: kernel.now() });
  verdicts.set(ctx, verdict);
  const delta = verdict.fired.find((r) => r.ruleType === 'delta');
  return {
    ...data,
    ...read,
    delta: delta && previous && value !== undefined ? `${previous.value} → ${value}` : null,
    autoVerdict: verdictText(verdict, ctx) || null,
    criticalNotified: null,
    criticalAckBy: null,
    criticalAckAt: null,
  };
}

/** A critical value goes at once to everyone who may test the item's group, with the alert sound. */
async function alertCritical(kernel: Kernel, ctx: WriteContext, row: { orgId: number; data: Data }) {
  const d = row.data;
  const accounts = await groupMembers(kernel, kernel.db, row.orgId, Number(d.professionalGroup));
  const users = (await Promise.all(accounts.map((a) => findForLogin(kernel.db, a)))).flatMap((u) => (u ? [u.id] : []));
  const item = (await kernel.records.titles(kernel.db, 'inspectionItem', row.orgId, [Number(d.item)])).get(
    Number(d.item),
  );
  await kernel.push.pushToUsers(users, {
    type: 'error',
    title: say(RESULT_MESSAGES.criticalTitle, ctx.locale),
    message: say(RESULT_MESSAGES.criticalAlert, ctx.locale, {
      barcode: String(d.barcode),
      patient: String(d.patientName ?? ''),
      item: item ?? '',
      result: String(d.result),
      unit: String(d.unit ?? ''),
      flag: String(d.flag),
    }),
  });
}

export const resultEntry: HookRegistration = {
  resource: 'inspectionResult',
  order: 20,
  hooks: {
    async beforeWrite(ctx, data) {
      return ctx.transition === 'record' ? interpretEntry(ctx, data) : data;
    },
    async afterWrite(ctx, row) {
      if (ctx.transition !== 'record') return;
      const { kernel, actor, locale, ip } = ctx;
      if (row.data.critical === true) ctx.afterCommit(() => alertCritical(kernel, ctx, row));
      const verdict = verdicts.get(ctx);
      if (verdict?.kind !== 'auto') return;
      ctx.afterCommit(async () => {
        await kernel.resources.transition({ actor, locale, ip }, 'inspectionResult', row.id, 'autoVerify', {
          system: true,
          set: { auditor: say(RESULT_MESSAGES.autoVerified, locale, { rule: verdict.by!.name }) },
          details: { rule: verdict.by!.code },
        });
      });
    },
  },
};
