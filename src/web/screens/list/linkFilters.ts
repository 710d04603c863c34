import type { FieldDef, ScreenSchema } from '../../../shared/screens/fields';

/**
 * A list opened by a link (issue 24): /specimen?status=received shows the list filtered, as if the user
 * had chosen 已接收 in its filter bar (the dashboard's counts link so). Only the screen's own filters are
 * read, each as its filter control holds it: an option's value as text, a period as [from, to]
 * (written `key=from,to`, or `keyFrom` / `keyTo` like the list query). Anything else in the address,
 * or a value the filter could not hold, is left out, so a link never asks the server what a user could not.
 */
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/;
const TEXT_MAX = 200;

const isPeriod = (field: FieldDef) =>
  (field.type === 'date' || field.type === 'datetime') && (field.filter ?? 'range') === 'range';

/** A day or time as the period control keeps it; a last day of a datetime period counts whole. */
function periodEnd(field: FieldDef, text: string, end: boolean): string | undefined {
  if (DATE.test(text)) return field.type === 'datetime' && end ? `${text} 23:59:59` : text;
  if (field.type === 'datetime' && DATETIME.test(text)) return text.replace('T', ' ');
  return undefined;
}

function period(field: FieldDef, search: URLSearchParams): (string | undefined)[] | undefined {
  const [joinedFrom, joinedTo] = (search.get(field.key) ?? '').split(',');
  const from = (search.get(`${field.key}From`) ?? joinedFrom ?? '').trim();
  const to = (search.get(`${field.key}To`) ?? joinedTo ?? '').trim();
  const range = [from ? periodEnd(field, from, false) : undefined, to ? periodEnd(field, to, true) : undefined];
  // A period with an unreadable end is dropped whole: half of what the link meant would mislead.
  if ((from && !range[0]) || (to && !range[1]) || (!from && !to)) return undefined;
  return range;
}

function single(field: FieldDef, text: string): string | undefined {
  switch (field.type) {
    case 'boolean':
      return text === 'true' || text === 'false' ? text : undefined;
    case 'enum':
      // A dictionary's values are known only to the filter bar; a stated option list is checked here.
      return !field.options || field.options.some((o) => String(o.value) === text) ? text : undefined;
    case 'reference':
    case 'tree':
      // One record, or any of several ("3,5": the dashboard's count of the user's groups).
      return /^\d+(,\d+)*$/.test(text) ? text : undefined;
    case 'integer':
      return /^\d+$/.test(text) ? text : undefined;
    case 'number':
    case 'money':
      return Number.isFinite(Number(text)) ? text : undefined;
    default:
      return text.length <= TEXT_MAX ? text : undefined;
  }
}

export function linkFilters(screen: ScreenSchema, search: string | URLSearchParams): Record<string, unknown> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const filters: Record<string, unknown> = {};
  for (const key of screen.filters ?? []) {
    const field = screen.fields.find((f) => f.key === key);
    if (!field) continue;
    if (isPeriod(field)) {
      const range = period(field, params);
      if (range) filters[key] = range;
      continue;
    }
    const text = params.get(key)?.trim();
    const value = text ? single(field, text) : undefined;
    if (value !== undefined) filters[key] = value;
  }
  return filters;
}
