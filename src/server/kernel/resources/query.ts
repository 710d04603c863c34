import type { ScreenSchema } from '../../../shared/screens/fields.js';
import { sortableFields } from '../../../shared/screens/fields.js';
import { intParam } from '../http/request.js';
import type { ListQuery } from './repository.js';

/** A list's query string as the repository takes it: page, size, a sort the screen allows, and field filters. */
export function listQuery(screen: ScreenSchema, query: Record<string, string | undefined>): ListQuery {
  const [field, order] = (query.sort ?? '').split(',');
  const sortable = sortableFields(screen);
  const sort =
    field && sortable.includes(field)
      ? { field, order: order === 'desc' ? ('desc' as const) : ('asc' as const) }
      : screen.list?.defaultSort;
  // page, size and sort are the list's own parameters, never filters: a field keyed "sort" (an order
  // number) would otherwise be compared with "sort,asc" and fail the whole list.
  const params = Object.fromEntries(Object.entries(query).filter(([key]) => !['page', 'size', 'sort'].includes(key)));
  return { page: intParam(query.page, 1), size: intParam(query.size, 50, 1000), sort, params };
}
