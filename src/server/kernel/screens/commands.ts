import type { ActionDef, ScreenSchema } from '../../../shared/screens/fields.js';

/** Answers whether the server has a route for a method and a path pattern (:name parameters). */
export type RouteCheck = (method: string, url: string) => boolean;

/**
 * The route patterns an endpoint may be served by: `/api/qc/results/{id}/evaluate` is
 * `/api/qc/results/:id/evaluate`; a call of the generic resource (`/api/resources/reagent/{id}`) is
 * served by its `/api/resources/:resource/...` routes.
 */
export function routePatterns(endpoint: string): string[] {
  const pattern = endpoint.split('?')[0]!.replace(/\{(\w+)\}/g, ':$1');
  const generic = pattern.replace(/^\/api\/resources\/[A-Za-z0-9]+(?=\/|$)/, '/api/resources/:resource');
  return generic === pattern ? [pattern] : [pattern, generic];
}

/**
 * A named command of a screen (and a worksheet's save) calls a server endpoint; the schema may only name calls the server
 * implements under /api (where every call is authenticated and checked by its own route), so a typo
 * or a made-up URL is a schema error, not a button that fails in front of the user.
 */
export function commandProblems(screen: ScreenSchema, hasRoute: RouteCheck): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const group of ['toolbar', 'row', 'batch'] as const) {
    (screen.actions?.[group] ?? []).forEach((action: ActionDef, i) => {
      // A command calls its endpoint; an import may name the call that takes its file.
      if (action.kind !== 'command' && !(action.kind === 'import' && action.endpoint)) return;
      const where = `/actions/${group}/${i}`;
      if (action.kind === 'command' && !action.name && !action.endpoint)
        problems.push({ path: where, message: 'a command needs a name or an endpoint' });
      if (!action.endpoint) return;
      const method = action.method ?? 'POST';
      if (!action.endpoint.startsWith('/api/'))
        problems.push({ path: `${where}/endpoint`, message: 'a command endpoint must be a call under /api/' });
      else if (!routePatterns(action.endpoint).some((url) => hasRoute(method, url)))
        problems.push({ path: `${where}/endpoint`, message: `the server has no ${method} ${action.endpoint}` });
    });
  }
  // A worksheet's save is a call like a command's: one the server has.
  const save = screen.list?.worksheet?.save;
  if (save && !routePatterns(save).some((url) => hasRoute('POST', url)))
    problems.push({ path: '/list/worksheet/save', message: `the server has no POST ${save}` });
  return problems;
}
