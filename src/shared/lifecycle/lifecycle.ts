import type { LifecycleDef, ScreenSchema, TransitionDef } from '../generated/screen.js';

export type { LifecycleDef, TransitionDef };

/**
 * A record's lifecycle as its screen declares it (resource.lifecycle): states are the options of one
 * enum field, and the field changes only through the declared transitions. Pure rules, used by the
 * server that enforces them and by the checks that read a schema when it loads.
 */
export function lifecycleOf(screen: ScreenSchema): LifecycleDef | undefined {
  return screen.resource.lifecycle;
}

export function transitionOf(lifecycle: LifecycleDef, name: string): TransitionDef | undefined {
  return lifecycle.transitions.find((t) => t.name === name);
}

/** Why a transition cannot run from a state, or undefined when it can. */
export function refusal(transition: TransitionDef, state: unknown): 'wrongState' | undefined {
  return transition.from.includes(String(state ?? '')) ? undefined : 'wrongState';
}

/** The problems of a declared lifecycle (file paths under /resource/lifecycle), for the schema check. */
export function lifecycleProblems(screen: ScreenSchema): { path: string; message: string }[] {
  const lifecycle = screen.resource.lifecycle;
  if (!lifecycle) return [];
  const problems: { path: string; message: string }[] = [];
  const at = '/resource/lifecycle';
  const field = screen.fields.find((f) => f.key === lifecycle.field);
  if (!field || field.type !== 'enum' || !field.options) {
    return [{ path: `${at}/field`, message: `"${lifecycle.field}" must be an enum field with options` }];
  }
  const states = new Set(field.options.map((o) => String(o.value)));
  const state = (value: string, where: string) => {
    if (!states.has(value)) problems.push({ path: where, message: `"${value}" is not an option of ${field.key}` });
  };
  const keys = new Set(screen.fields.map((f) => f.key));
  state(lifecycle.initial, `${at}/initial`);
  lifecycle.editableIn?.forEach((s, i) => state(s, `${at}/editableIn/${i}`));
  const names = new Set<string>();
  lifecycle.transitions.forEach((t, i) => {
    const where = `${at}/transitions/${i}`;
    if (names.has(t.name)) problems.push({ path: `${where}/name`, message: `duplicate transition "${t.name}"` });
    names.add(t.name);
    t.from.forEach((s, j) => state(s, `${where}/from/${j}`));
    state(t.to, `${where}/to`);
    for (const key of [...(t.requires ?? []), ...Object.keys(t.stamp ?? {})])
      if (!keys.has(key) || key === lifecycle.field)
        problems.push({ path: where, message: `no field "${key}" to fill` });
    if (t.notBy && !keys.has(t.notBy)) problems.push({ path: `${where}/notBy`, message: `no field "${t.notBy}"` });
  });
  return problems;
}
