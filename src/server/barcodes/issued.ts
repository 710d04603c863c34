import type { Locale } from '../../shared/i18n/messages.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { ApiError } from '../kernel/http/envelope.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import { refuse } from '../kernel/resources/commands.js';
import type { Stored } from '../kernel/resources/store.js';
import { barcodeOf, lastSequenceOf, numberingOf, periodOf, repeatsNumbers } from './sequence.js';
import { labNow } from '../kernel/labConfig/timeZone.js';

export const MESSAGES = {
  disabled: {
    'zh-CN': '该条码规则已停用，不能取号',
    'en-US': 'This barcode rule is disabled; no numbers can be issued',
  },
  repeats: {
    'zh-CN': '日期部分不包含重置周期，重置后条码会重复，请修改规则',
    'en-US': 'The date part does not carry the reset period, so numbers would repeat after a reset; change the rule',
  },
  exhausted: {
    'zh-CN': '本周期流水号已用尽，请加大流水号位数',
    'en-US': 'The sequence of this period is used up; widen the sequence',
  },
  noRule: {
    'zh-CN': '没有启用的标本试管条码规则，无法发放条码，请先在自定义条码规则中启用一条',
    'en-US': 'No enabled specimen tube barcode rule: enable one under custom barcode rules first',
  },
  notIssued: {
    'zh-CN': '条码 {barcode} 不是本实验室发放的条码，请扫描已发放的预印条码或留空自动取号',
    'en-US': 'Barcode {barcode} was never issued by this lab: scan an issued pre-printed label or leave it empty',
  },
  used: {
    'zh-CN': '条码 {barcode} 已被标本使用，不能重复使用',
    'en-US': 'Barcode {barcode} is already used by a specimen',
  },
  changed: { 'zh-CN': '条码号发放后不能修改', 'en-US': 'A barcode cannot be changed once issued' },
} satisfies Record<string, Record<Locale, string>>;

/** A message naming the barcode it is about. */
export const fill = (message: Record<Locale, string>, barcode: string) =>
  Object.fromEntries(Object.entries(message).map(([l, m]) => [l, m.replace('{barcode}', barcode)])) as Record<
    Locale,
    string
  >;

/**
 * Issues the next numbers of a rule, locked for the transaction: none skipped, none given twice. Every
 * number is kept as issued (and unused) so that a pre-printed label can be taken by a specimen later.
 */
export async function issueNumbers(
  kernel: Kernel,
  tx: Queryable,
  current: Stored<'barcodeRule'>,
  count: number,
  actor: AuthUser,
  locale: Locale,
) {
  const rule = numberingOf(current.data);
  if (!rule) throw new ApiError(500, 'common.serverError');
  if (current.data.enabled === false) refuse(locale, MESSAGES.disabled);
  if (repeatsNumbers(rule)) refuse(locale, MESSAGES.repeats, 'datePart');
  // The rule's date parts read a Date's own calendar fields: the lab's wall clock now, as such a Date,
  // so that the day in a barcode is the lab's whatever the server's zone.
  const now = new Date(labNow(kernel, actor).replace(' ', 'T'));
  const period = periodOf(rule.resetPeriod, now);
  const first = (current.data.currentPeriod === period ? (current.data.lastSequence ?? 0) : 0) + 1;
  const last = first + count - 1;
  if (last > lastSequenceOf(rule)) refuse(locale, MESSAGES.exhausted, 'sequenceWidth');
  const barcodes = Array.from({ length: count }, (_, i) => barcodeOf(rule, now, first + i));
  const data = { ...current.data, currentPeriod: period, lastSequence: last, lastBarcode: barcodes[count - 1] };
  const row = await kernel.records.update(tx, 'barcodeRule', current, data, actor.id);
  await tx.query(
    `insert into issued_barcode (org_id, barcode, rule_id, issued_by)
       select $1, b, $2, $3 from unnest($4::text[]) b on conflict do nothing`,
    [current.orgId, current.id, actor.id, barcodes],
  );
  return { barcodes, row };
}

/** The lab's rule for specimen tubes: the enabled tube rule with the lowest id, locked. */
async function tubeRule(kernel: Kernel, tx: Queryable, orgId: number, locale: Locale) {
  const rules = await kernel.records.find(tx, 'barcodeRule', orgId, { usage: ['tube'] });
  const rule = rules.filter((r) => r.data.enabled !== false).sort((a, b) => a.id - b.id)[0];
  const locked = rule && (await kernel.records.lock(tx, 'barcodeRule', orgId, rule.id));
  if (!locked) refuse(locale, MESSAGES.noRule, 'barcode');
  return locked;
}

/**
 * A new specimen's barcode: the next number of the tube rule when none is given (skipping any a
 * specimen already holds, such as imported history), else one the lab issued and no specimen used.
 */
export async function specimenBarcode(
  kernel: Kernel,
  tx: Queryable,
  actor: AuthUser,
  given: string,
  locale: Locale,
): Promise<string> {
  if (given) {
    const found = await tx.query<{ usedBy: string | null }>(
      'select used_by as "usedBy" from issued_barcode where org_id = $1 and barcode = $2 for update',
      [actor.orgId, given],
    );
    if (found.length === 0) refuse(locale, fill(MESSAGES.notIssued, given), 'barcode');
    if (found[0]!.usedBy !== null) refuse(locale, fill(MESSAGES.used, given), 'barcode');
    return given;
  }
  let rule = await tubeRule(kernel, tx, actor.orgId, locale);
  for (;;) {
    const { barcodes, row } = await issueNumbers(kernel, tx, rule, 1, actor, locale);
    const barcode = barcodes[0]!;
    const taken = await kernel.records.find(tx, 'specimen', actor.orgId, { barcode: [barcode] });
    if (taken.length === 0) return barcode;
    rule = row;
  }
}

/** The barcode now belongs to its specimen: it cannot be taken again. */
export async function markUsed(tx: Queryable, orgId: number, barcode: string, specimenId: number, at: Date) {
  await tx.query('update issued_barcode set used_by = $3, used_at = $4 where org_id = $1 and barcode = $2', [
    orgId,
    barcode,
    specimenId,
    at,
  ]);
}
