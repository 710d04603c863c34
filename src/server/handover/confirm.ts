import type { FastifyRequest } from 'fastify';
import { t, type Locale } from '../../shared/i18n/messages.js';
import { fieldByKey, optionLabel, type ScreenSchema } from '../../shared/screens/fields.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { badRequest, InvalidRecord, notFound } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { appendLog } from '../kernel/audit/log.js';
import { barcodeProblem, splitBarcodes } from './barcodes.js';
import type { Receiver } from './receiver.js';
import { refuseClosed } from './rules.js';
import { moveSpecimens } from './specimens.js';
import type { Caller } from '../kernel/identity/actor.js';
import { handoversByIds, LINE, linesOf, lockHandovers, stamp, type Handover, type HandoverLine } from './store.js';
import { zoneOf } from '../kernel/labConfig/timeZone.js';

/** What the receiver found, beside their signature. */
export interface Receipt {
  temperatureC?: number;
  missing: string[];
  damaged: string[];
  extra: string[];
  /**
   * The tubes found in the box, scanned one by one: given, the server derives what is missing (on the
   * slip, not scanned) and extra (scanned, on no slip) instead of being told.
   */
  scanned?: string[];
  remark?: string;
  /** The receiving professional group the receiver confirms for (spec 7.2 proGroupName). */
  proGroupName?: string;
}

const invalid = (field: string, message: string) => new InvalidRecord([{ field, message }]);

/** The receipt's inputs (query or body), checked; a wrong one is refused before anything is read. */
export function readReceipt(input: Record<string, unknown>, locale: Locale): Receipt {
  const receipt: Receipt = { missing: [], damaged: [], extra: [] };
  const temperature = input.temperatureC;
  if (temperature !== undefined && temperature !== null && temperature !== '') {
    const value = Number(temperature);
    if (!Number.isFinite(value) || value < -80 || value > 45)
      throw invalid('temperatureC', `${t('common.invalid', locale)}: temperatureC (-80 ~ 45 ℃)`);
    receipt.temperatureC = Math.round(value * 10) / 10;
  }
  for (const key of ['missing', 'damaged', 'extra'] as const) {
    receipt[key] = splitBarcodes(input[key]);
    const problem = barcodeProblem(receipt[key], locale, false);
    if (problem) throw invalid(key, problem);
  }
  const twice = receipt.missing.find((b) => receipt.damaged.includes(b));
  if (twice) throw invalid('damaged', t('handover.barcode.twice', locale, { barcode: twice }));
  const scanned = splitBarcodes(input.scanned);
  if (scanned.length > 0) {
    const problem = barcodeProblem(scanned, locale, false);
    if (problem) throw invalid('scanned', problem);
    const told = receipt.missing.length > 0 ? 'missing' : receipt.extra.length > 0 ? 'extra' : undefined;
    if (told) throw invalid(told, t('handover.scanned.derived', locale));
    receipt.scanned = scanned;
  }
  if (typeof input.remark === 'string' && input.remark.trim()) {
    if (input.remark.length > 500) throw invalid('remark', `${t('common.invalid', locale)}: remark (≤ 500)`);
    receipt.remark = input.remark.trim();
  }
  if (typeof input.proGroupName === 'string' && input.proGroupName.trim())
    receipt.proGroupName = input.proGroupName.trim();
  return receipt;
}

/** The receiving group named by code or by its label in either language. */
export function addressedTo(screen: ScreenSchema, record: Handover, group: string): boolean {
  const option = screen.fields.find((f) => f.key === 'toGroup')?.options?.find((o) => o.value === record.data.toGroup);
  return group === record.data.toGroup || (option !== undefined && Object.values(option.label).includes(group));
}

/** The check label of a line ("缺失", "Damaged") as the line screen names it. */
function checkLabel(lineScreen: ScreenSchema, value: string, locale: Locale): string {
  return optionLabel(fieldByKey(lineScreen, 'checkResult'), value, locale) ?? value;
}

/** The discrepancy as the slip prints it: missing / damaged / extra barcodes, then the remark. */
function discrepancyText(
  lineScreen: ScreenSchema,
  found: Record<'missing' | 'damaged' | 'extra', string[]>,
  remark: string | undefined,
  locale: Locale,
): string | undefined {
  const parts = (['missing', 'damaged', 'extra'] as const)
    .filter((k) => found[k].length > 0)
    .map((k) => `${checkLabel(lineScreen, k, locale)}：${found[k].join('、')}`);
  if (remark) parts.push(remark);
  return parts.length > 0 ? parts.join('；') : undefined;
}

interface Plan {
  record: Handover;
  lines: HandoverLine[];
  found: Record<'missing' | 'damaged' | 'extra', string[]>;
}

/**
 * What the scans of a box say: the slips' tubes not scanned are missing (a damaged one was seen, so
 * arrived), the tubes scanned that are on no slip are extra.
 */
function fromScans(receipt: Receipt, lines: HandoverLine[]): Receipt {
  if (!receipt.scanned) return receipt;
  const arrived = new Set([...receipt.scanned, ...receipt.damaged]);
  const onSlips = new Set(lines.map((l) => String(l.data.barcode)));
  return {
    ...receipt,
    missing: [...onSlips].filter((b) => !arrived.has(b)),
    extra: receipt.scanned.filter((b) => !onSlips.has(b)),
  };
}

/** Which handover each reported barcode belongs to; a barcode on none of them (or extra on one) is refused. */
function planReceipt(records: Handover[], lines: HandoverLine[], told: Receipt, locale: Locale): Plan[] {
  const receipt = fromScans(told, lines);
  const plans = records.map((record) => ({
    record,
    lines: lines.filter((l) => l.data.handover === record.id),
    found: { missing: [] as string[], damaged: [] as string[], extra: [] as string[] },
  }));
  const planOf = (barcode: string) => plans.find((p) => p.lines.some((l) => l.data.barcode === barcode));
  for (const key of ['missing', 'damaged'] as const) {
    for (const barcode of receipt[key]) {
      const plan = planOf(barcode);
      if (!plan) throw invalid(key, t('handover.barcode.notOnSlip', locale, { barcode }));
      plan.found[key].push(barcode);
    }
  }
  if (receipt.extra.length > 0 && plans.length > 1) throw invalid('extra', t('handover.extra.oneSlip', locale));
  for (const barcode of receipt.extra) {
    const plan = planOf(barcode);
    if (plan)
      throw invalid(
        'extra',
        t('handover.barcode.onSlip', locale, { barcode, handoverNo: String(plan.record.data.handoverNo) }),
      );
    plans[0]!.found.extra.push(barcode);
  }
  return plans;
}

/** Each line's check (ok unless reported), the extra specimens as lines of their own. */
async function writeLines(ctx: Kernel, tx: Queryable, plan: Plan, at: string, userId: number) {
  for (const line of plan.lines) {
    const barcode = String(line.data.barcode);
    const checkResult = plan.found.missing.includes(barcode)
      ? 'missing'
      : plan.found.damaged.includes(barcode)
        ? 'damaged'
        : 'ok';
    await ctx.records.update(tx, LINE, line, { ...line.data, checkResult, checkedAt: at }, userId);
  }
  for (const barcode of plan.found.extra) {
    const extra = { handover: plan.record.id, barcode, checkResult: 'extra' as const, checkedAt: at };
    await ctx.records.insert(tx, LINE, plan.record.orgId, extra, userId);
  }
}

/**
 * The specimens of a confirmed slip move on, done by the receiver who signed: those that arrived are
 * received by the slip's group, the missing ones are marked missing.
 */
async function receiveSpecimens(ctx: Kernel, tx: Queryable, caller: Caller, receiver: Receiver, plan: Plan) {
  const signer = { ...caller, actor: { ...caller.actor, ...receiver } };
  const handoverNo = String(plan.record.data.handoverNo);
  const onSlip = plan.lines.map((l) => String(l.data.barcode));
  const arrived = onSlip.filter((b) => !plan.found.missing.includes(b));
  const set = { receivedGroup: plan.record.data.toGroup };
  await moveSpecimens(ctx, tx, signer, arrived, 'receive', { handoverNo, set });
  await moveSpecimens(ctx, tx, signer, plan.found.missing, 'markMissing', { handoverNo });
}

export interface Confirmation {
  screen: ScreenSchema;
  lineScreen: ScreenSchema;
  ids: number[];
  receipt: Receipt;
  receiver: Receiver;
}

/**
 * Confirms receipt of handovers, all or none, in one transaction under the handover lock: each must be
 * open, addressed to the group named, and received by someone other than who handed it over. The
 * receiver, the time, the temperature and what did not match are written to the handover and its
 * lines; the handover is closed (received, or discrepancy when anything did not match) and the step
 * goes to the operation log with before and after.
 */
export async function confirmHandovers(ctx: Kernel, request: FastifyRequest, c: Confirmation): Promise<Handover[]> {
  const actor = actorOf(request);
  const locale = request.locale;
  return ctx.db.transaction(async (tx) => {
    await lockHandovers(ctx.records, tx, actor.orgId);
    const records = await handoversByIds(ctx.records, tx, actor.orgId, c.ids);
    if (records.length !== c.ids.length) throw notFound();
    for (const record of records) {
      refuseClosed(record, locale);
      if (c.receipt.proGroupName && !addressedTo(c.screen, record, c.receipt.proGroupName))
        throw badRequest('handover.group.mismatch', {
          handoverNo: String(record.data.handoverNo),
          group: c.receipt.proGroupName,
        });
      if (record.data.handedByAccount === c.receiver.userAccount)
        throw badRequest('handover.receiver.sameAsSender', { account: c.receiver.userAccount });
    }
    const plans = planReceipt(records, await linesOf(ctx.records, tx, actor.orgId, c.ids), c.receipt, locale);
    const at = stamp(ctx.now(), zoneOf(ctx, actor));
    const confirmed: Handover[] = [];
    for (const plan of plans) {
      await writeLines(ctx, tx, plan, at, actor.id);
      const discrepancy = discrepancyText(c.lineScreen, plan.found, c.receipt.remark, locale);
      const matched = plan.found.missing.length + plan.found.damaged.length + plan.found.extra.length === 0;
      const data = {
        ...plan.record.data,
        status: matched ? ('received' as const) : ('discrepancy' as const),
        receivedBy: c.receiver.userName,
        receivedByAccount: c.receiver.userAccount,
        receivedAt: at,
        ...(c.receipt.temperatureC !== undefined && { temperatureC: c.receipt.temperatureC }),
        ...(discrepancy && { discrepancy }),
      };
      const row = await ctx.records.update(tx, 'handoverRecord', plan.record, data, actor.id);
      await receiveSpecimens(ctx, tx, { actor, locale, ip: request.ip }, c.receiver, plan);
      await appendLog(tx, actor, {
        resource: c.screen.resource.name,
        recordId: row.id,
        action: 'handoverConfirm',
        before: plan.record.data,
        after: row.data,
        ip: request.ip,
      });
      confirmed.push(row);
    }
    return confirmed;
  });
}
