import type { Predicate, ScreenSchema } from '../../../shared/generated/screen.js';

/**
 * A view screen shows another screen's records (resource.viewOf) with its own columns, filters,
 * actions and fixed condition: one record, many screens. These are the checks a view must pass
 * against the screen that owns its records, made when the files load.
 */
export function viewProblems(view: ScreenSchema, owner: ScreenSchema | undefined): { path: string; message: string }[] {
  if (!view.resource.viewOf) return [];
  if (!owner || owner.resource.viewOf)
    return [{ path: '/resource/viewOf', message: `no screen owns resource "${view.resource.viewOf}"` }];
  const problems: { path: string; message: string }[] = [];
  if (view.resource.lifecycle)
    problems.push({ path: '/resource/lifecycle', message: 'a view follows the lifecycle of the screen it views' });
  view.fields.forEach((field, i) => {
    const own = owner.fields.find((f) => f.key === field.key);
    if (!own) problems.push({ path: `/fields/${i}/key`, message: `"${field.key}" is no field of ${owner.id}` });
    else if (own.type !== field.type)
      problems.push({ path: `/fields/${i}/type`, message: `"${field.key}" is a ${own.type} in ${owner.id}` });
  });
  if (view.resource.where) problems.push(...whereProblems(view.resource.where, owner));
  problems.push(...actionProblems(view, owner));
  return problems;
}

/** A fixed condition is run as SQL: only comparisons the list query can say, on fields of the owner. */
function whereProblems(
  where: Predicate,
  owner: ScreenSchema,
  at = '/resource/where',
): { path: string; message: string }[] {
  if ('all' in where) return where.all.flatMap((p, i) => whereProblems(p, owner, `${at}/all/${i}`));
  if (!('field' in where) || !['eq', 'ne', 'in', 'notIn'].includes(where.op))
    return [{ path: at, message: 'a view condition is eq, ne, in or notIn on a field, or all of them' }];
  if (!owner.fields.some((f) => f.key === where.field))
    return [{ path: `${at}/field`, message: `no field "${where.field}"` }];
  return [];
}

/** A screen's actions against the lifecycle that governs its records: its transition buttons and its scan action. */
export function actionProblems(screen: ScreenSchema, owner: ScreenSchema): { path: string; message: string }[] {
  return [...transitionActionProblems(screen, owner), ...scanActionProblems(screen, owner)];
}

/** Transition buttons name transitions of the lifecycle that governs the records. */
export function transitionActionProblems(
  screen: ScreenSchema,
  owner: ScreenSchema,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const group of ['toolbar', 'row', 'batch'] as const) {
    (screen.actions?.[group] ?? []).forEach((action, i) => {
      if (action.kind !== 'transition') return;
      const where = `/actions/${group}/${i}`;
      if (group === 'toolbar') problems.push({ path: where, message: 'a transition is a row or batch action' });
      const known = owner.resource.lifecycle?.transitions.some((t) => t.name === action.name);
      if (!known) problems.push({ path: `${where}/name`, message: `no transition "${action.name ?? ''}"` });
    });
  }
  return problems;
}

/**
 * The action a desk runs on each scanned tube is one of the screen's row actions, and runs on the scan
 * alone: nothing to type, nothing to confirm (a scanner does not answer a dialog).
 */
export function scanActionProblems(screen: ScreenSchema, owner: ScreenSchema): { path: string; message: string }[] {
  const name = screen.list?.scan?.action;
  if (name === undefined) return [];
  const where = '/list/scan/action';
  const action = screen.actions?.row?.find((a) => (a.kind === 'transition' || a.kind === 'command') && a.name === name);
  if (!action) return [{ path: where, message: `no row transition or command "${name}"` }];
  const transition = owner.resource.lifecycle?.transitions.find((t) => t.name === name);
  const asks =
    action.confirm !== undefined ||
    (action.fields?.length ?? 0) > 0 ||
    (action.kind === 'transition' && ((transition?.requires?.length ?? 0) > 0 || transition?.signature === true));
  return asks ? [{ path: where, message: `"${name}" asks for input or confirmation: it cannot run on a scan` }] : [];
}
