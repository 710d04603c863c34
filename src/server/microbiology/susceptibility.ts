import type { SusceptibilityResultRecord } from '../../shared/generated/resources.js';
import type { Locale } from '../../shared/i18n/messages.js';
import { isEmpty, type RecordValues } from '../../shared/screens/predicate.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import type { HookRegistration, WriteContext } from '../kernel/resources/hooks.js';
import type { Stored } from '../kernel/resources/store.js';
import { labTable, type Table } from './guideline.js';
import { interpret, type Method } from './interpretation.js';
import { MICRO_MESSAGES, refused, say } from './messages.js';
import { labNow } from '../kernel/labConfig/timeZone.js';

/**
 * The breakpoint of a table for an organism, antibiotic and method: the organism's own row first
 * (S. aureus against the other staphylococci), else its group's. None: undefined, never a near one.
 */
export async function findBreakpoint(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  table: Table,
  what: { species: Stored<'bacterialSpecies'>; antibiotic: number; method: Method },
): Promise<Stored<'breakpoint'> | undefined> {
  const rows = await kernel.records.find(tx, 'breakpoint', orgId, {
    guideline: table.guideline,
    tableVersion: table.version,
    method: what.method,
    antibiotic: what.antibiotic,
  });
  return (
    rows.find((r) => r.data.species === what.species.id) ??
    rows.find((r) => isEmpty(r.data.species) && r.data.organismGroup === what.species.data.organismGroup)
  );
}

/**
 * The table a save reads with. A result read before keeps its table (domain notes: an old result is
 * never re-read with a newer table silently), whatever the lab has chosen since; only the Interpret
 * command moves it, by naming the lab's current table itself. A new or still unread row takes the lab's.
 */
async function tableOf(ctx: WriteContext, data: RecordValues): Promise<Table> {
  const named = (d: RecordValues | undefined): Table | undefined =>
    d && !isEmpty(d.guideline) && !isEmpty(d.breakpointVersion)
      ? { guideline: d.guideline as Table['guideline'], version: String(d.breakpointVersion) }
      : undefined;
  const kept = ctx.via === 'command' ? named(data) : named(ctx.current?.data);
  return kept ?? labTable(ctx.kernel, ctx.tx, ctx.actor.orgId, ctx.locale);
}

const methodWord = (method: Method, locale: Locale) => say(MICRO_MESSAGES[method], locale);

/**
 * Every save of a susceptibility result (form, import, command) is read again by the server: the
 * specimen and organism come from the isolate, S / I / SDD / R from the breakpoint of the table it
 * reads with, and who entered the reading and when from the signed-in account. Nothing of this is
 * taken from the input. A reading no breakpoint covers is refused, and nothing is written.
 */
async function reread(ctx: WriteContext, data: RecordValues): Promise<RecordValues> {
  const { tx, kernel, actor, locale, current } = ctx;
  const isolate = await kernel.records.get(tx, 'isolate', actor.orgId, data.isolate);
  const species = await kernel.records.get(tx, 'bacterialSpecies', actor.orgId, isolate?.data.species);
  const method = data.method as Method;
  const value = method === 'mic' ? data.mic : data.zoneMm;
  const out: SusceptibilityResultRecord = {
    ...(data as unknown as SusceptibilityResultRecord),
    barcode: isolate?.data.barcode ?? null,
    patientName: isolate?.data.patientName ?? null,
    species: isolate?.data.species ?? null,
    // The other method's value would print beside a category it did not give.
    ...(method === 'mic' ? { zoneMm: null } : { mic: null }),
  };
  if (isEmpty(value) || !species) {
    // A panel's row waiting for its reading: nothing to interpret yet.
    return { ...out, interpretation: null, guideline: null, breakpointVersion: null, testedBy: null, testedAt: null };
  }
  const table = await tableOf(ctx, data);
  const antibiotic = Number(data.antibiotic);
  const bp = await findBreakpoint(kernel, tx, actor.orgId, table, { species, antibiotic, method });
  const names = async () => ({
    version: table.version,
    organism: String(species.data.name),
    antibiotic: (await kernel.records.titles(tx, 'antibiotic', actor.orgId, [antibiotic])).get(antibiotic) ?? '',
    method: methodWord(method, locale),
  });
  if (!bp) refused(MICRO_MESSAGES.noBreakpoint, locale, await names(), 'antibiotic');
  const category = interpret(table.guideline, method, Number(value), bp.data);
  if (!category) refused(MICRO_MESSAGES.noValues, locale, await names(), 'antibiotic');
  const before = current?.data;
  const newReading =
    !before || before.method !== method || before.mic !== out.mic || before.zoneMm !== out.zoneMm || !before.testedBy;
  return {
    ...out,
    interpretation: category,
    guideline: table.guideline,
    breakpointVersion: table.version,
    testedBy: newReading ? actor.userName : (before.testedBy as string),
    testedAt: newReading ? labNow(kernel, actor) : (before.testedAt as string),
  };
}

export const susceptibilityReading: HookRegistration = {
  resource: 'susceptibilityResult',
  order: 20,
  hooks: {
    beforeWrite: (ctx, data) => reread(ctx, data),
  },
};
