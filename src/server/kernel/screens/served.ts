import type { ActionDef, FieldDef, ScreenSchema } from '../../../shared/screens/fields.js';
import { serverKept } from '../../../shared/screens/fields.js';
import { screenMessage } from '../../../shared/screens/messages.js';
import type { LifecycleDef } from '../../../shared/lifecycle/lifecycle.js';

/** Who the screen is served to: a step kept from the person who did an earlier one is not offered them. */
export interface Viewer {
  userName: string;
  userAccount: string;
}

/**
 * A screen as the browser gets it: the lifecycle's state field read-only (only transitions change
 * it), as are the fields the server stamps or numbers, and each transition button as the command that calls it, with the transition's fields in its
 * dialog: on a row, shown only in a state the transition leaves; in the batch bar, for the selected rows while each is in such a state. The renderer needs no notion of a
 * lifecycle: it draws commands. A step the viewer may not take on a row (they did its earlier step:
 * transition.notBy) is not offered on that row, nor an edit in a state the lifecycle does not let be edited.
 */
export function servedScreen(screen: ScreenSchema, owner: ScreenSchema, viewer?: Viewer): ScreenSchema {
  const lifecycle = owner.resource.lifecycle;
  const fields = screen.fields.map((f) => (f.key === lifecycle?.field || serverKept(f) ? { ...f, readOnly: true } : f));
  if (!lifecycle) return { ...screen, fields };
  const served = (scope: 'row' | 'batch') =>
    screen.actions?.[scope]?.map((a) =>
      a.kind === 'transition'
        ? transitionCommand(screen, owner, lifecycle, a, scope, viewer)
        : a.kind === 'edit'
          ? editWhileEditable(lifecycle, a)
          : a,
    );
  const [row, batch] = [served('row'), served('batch')];
  const actions = screen.actions && { ...screen.actions, ...(row && { row }), ...(batch && { batch }) };
  return { ...screen, fields, ...(actions && { actions }) };
}

/** The edit button, offered only in the states the lifecycle lets be edited (the server refuses the others). */
function editWhileEditable(lifecycle: LifecycleDef, action: ActionDef): ActionDef {
  if (!lifecycle.editableIn) return action;
  const editable = { field: lifecycle.field, op: 'in' as const, value: lifecycle.editableIn };
  return { ...action, visibleWhen: action.visibleWhen ? { all: [editable, action.visibleWhen] } : editable };
}

function transitionCommand(
  screen: ScreenSchema,
  owner: ScreenSchema,
  lifecycle: LifecycleDef,
  action: ActionDef,
  scope: 'row' | 'batch',
  viewer?: Viewer,
): ActionDef {
  const transition = lifecycle.transitions.find((t) => t.name === action.name)!;
  const asked: FieldDef[] = (transition.requires ?? [])
    .map((key) => owner.fields.find((f) => f.key === key))
    .filter((f): f is FieldDef => f !== undefined)
    // Asked in the transition's own dialog: required there, whatever the record form's conditions say.
    .map(({ visibleWhen: _v, requiredWhen: _r, enabledWhen: _e, ...f }) => ({ ...f, required: true, readOnly: false }));
  if (transition.signature) asked.push(signatureField());
  const command: ActionDef = {
    kind: 'command',
    // Kept: a scanner desk names the row action it runs on each scan (list.scan.action).
    name: transition.name,
    label: action.label ?? transition.label,
    endpoint: `/api/resources/${screen.resource.name}/{id}/transitions/${transition.name}`,
    method: 'POST',
    ...(action.confirm && { confirm: action.confirm }),
    ...(asked.length > 0 && { fields: asked }),
    ...((action.roles ?? transition.roles) && { roles: action.roles ?? transition.roles }),
  };
  const inState = { field: lifecycle.field, op: 'in' as const, value: transition.from };
  const notMine = transition.notBy &&
    viewer && { not: { field: transition.notBy, op: 'in' as const, value: [viewer.userName, viewer.userAccount] } };
  const conditions = [inState, ...(notMine ? [notMine] : []), ...(action.visibleWhen ? [action.visibleWhen] : [])];
  const visibleWhen = conditions.length === 1 ? inState : { all: conditions };
  // A batch button calls the step once for the selected rows, offered while each of them is in a state
  // it leaves (the server still names a row it cannot take: the list may be older than the record).
  if (scope === 'batch')
    return {
      ...command,
      endpoint: `/api/resources/${screen.resource.name}/transitions/${transition.name}`,
      visibleWhen,
    };
  return { ...command, visibleWhen };
}

/** The password a signing transition asks again, never shown as typed. */
function signatureField(): FieldDef {
  const text = (key: 'signature.password' | 'signature.passwordHelp') => ({
    'zh-CN': screenMessage(key, 'zh-CN', {}),
    'en-US': screenMessage(key, 'en-US', {}),
  });
  return {
    key: 'password',
    type: 'text',
    label: text('signature.password'),
    description: text('signature.passwordHelp'),
    required: true,
    maxLength: 200,
    form: { secret: true },
  };
}
