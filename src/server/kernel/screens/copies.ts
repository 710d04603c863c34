import type { ScreenSchema } from '../../../shared/generated/screen.js';

/**
 * A copied field (field.copy) names another screen's record by a field both hold: the checks it must
 * pass against the screen that owns the source records, made when the files load.
 */
export function copyProblems(
  screen: ScreenSchema,
  owner: (resource: string) => ScreenSchema | undefined,
): { path: string; message: string }[] {
  return screen.fields.flatMap((field, i) => {
    if (!field.copy) return [];
    const at = `/fields/${i}/copy`;
    const { resource, match } = field.copy;
    const source = owner(resource);
    if (!source) return [{ path: `${at}/resource`, message: `no screen owns resource "${resource}"` }];
    const problems: { path: string; message: string }[] = [];
    if (!screen.fields.some((f) => f.key === match))
      problems.push({ path: `${at}/match`, message: `no field "${match}"` });
    if (!source.fields.some((f) => f.key === match))
      problems.push({ path: `${at}/match`, message: `"${match}" is no field of ${source.id}` });
    const copied = source.fields.find((f) => f.key === field.copy!.field);
    if (!copied) problems.push({ path: `${at}/field`, message: `"${field.copy.field}" is no field of ${source.id}` });
    else if (copied.type !== field.type)
      problems.push({ path: `${at}/field`, message: `"${copied.key}" is a ${copied.type} in ${source.id}` });
    return problems;
  });
}
