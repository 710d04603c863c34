import { splitList } from '../../../shared/workflow/labRules.js';
import type { Locale } from '../../../shared/i18n/messages.js';
import type { ModdleElement } from './validate.js';
import { elementLabel, tell } from './problemMessages.js';

/**
 * Models drawn in other tools: Camunda's and Flowable's attributes and the standard potentialOwner /
 * humanPerformer, read as our Activiti dialect (validate.ts `attr` reads camunda: and flowable: names),
 * with a note for the user of what was read so and what the engine leaves out.
 */

/** Attributes the engine reads under any of the three prefixes. */
const READ = new Set([
  'assignee',
  'candidateUsers',
  'candidateGroups',
  'formKey',
  'priority',
  'initiator',
  'collection',
  'elementVariable',
]);

export interface People {
  assignee?: string;
  candidateUsers: string[];
  candidateGroups: string[];
}

interface Resource extends ModdleElement {
  resourceAssignmentExpression?: { expression?: { body?: string } };
}

/**
 * A task's standard resources: humanPerformer names the assignee, potentialOwner the candidates, each
 * written `user(kermit), group(management)`; a bare name is a group for potentialOwner, as in Activiti.
 */
export function standardPeople(el: ModdleElement): People {
  const people: People = { candidateUsers: [], candidateGroups: [] };
  for (const r of (el.resources as Resource[] | undefined) ?? []) {
    const parts = splitList(r.resourceAssignmentExpression?.expression?.body ?? '');
    for (const part of parts) {
      const m = /^(user|group)\((.+)\)$/.exec(part);
      const [kind, name] = m ? [m[1], m[2]!.trim()] : [undefined, part];
      if (r.$type === 'bpmn:HumanPerformer') people.assignee ??= name;
      else if (kind === 'user') people.candidateUsers.push(name);
      else people.candidateGroups.push(name);
    }
  }
  return people;
}

function each(scope: ModdleElement, fn: (el: ModdleElement) => void) {
  for (const el of scope.flowElements ?? []) {
    fn(el);
    if (el.flowElements) each(el, fn);
  }
}

/** What was read from another dialect, and what was left out, element by element, for the deploy answer. */
export function dialectNotes(definitions: ModdleElement, key: string, locale: Locale = 'en-US'): string[] {
  const process = (definitions.rootElements ?? []).find((p) => p.id === key);
  if (!process) return [];
  const notes: string[] = [];
  const visit = (el: ModdleElement) => {
    const where = elementLabel(el, locale);
    const read: string[] = [];
    const dropped: string[] = [];
    for (const name of Object.keys(el.$attrs ?? {})) {
      const m = /^(camunda|flowable):(.+)$/.exec(name);
      if (!m) continue;
      (READ.has(m[2]!) ? read : dropped).push(name);
    }
    for (const r of (el.resources as Resource[] | undefined) ?? [])
      read.push(r.$type === 'bpmn:HumanPerformer' ? 'humanPerformer' : 'potentialOwner');
    if (read.length) notes.push(`${where}: ${tell('dialectRead', locale, { names: read.join(', ') })}`);
    // Listeners name Java classes or expressions with effects of their own, which this engine does not run.
    const values = ((el.extensionElements as { values?: ModdleElement[] } | undefined)?.values ?? []).map(
      (v) => v.$type,
    );
    const listeners = [...new Set(values.filter((t) => /:(executionListener|taskListener)$/.test(t)))];
    if (listeners.length) notes.push(`${where}: ${tell('listenersNotRun', locale, { names: listeners.join(', ') })}`);
    if (dropped.length) notes.push(`${where}: ${tell('attributesDropped', locale, { names: dropped.join(', ') })}`);
  };
  visit(process);
  each(process, visit);
  return notes;
}

/** Assignees written as a plain account (not an expression) in the deployed process. */
export function literalAssignees(
  definitions: ModdleElement,
  key: string,
  read: (el: ModdleElement) => string | undefined,
) {
  const process = (definitions.rootElements ?? []).find((p) => p.id === key);
  const found: { id: string; name?: string; assignee: string }[] = [];
  if (!process) return found;
  each(process, (el) => {
    if (el.$type !== 'bpmn:UserTask') return;
    const assignee = read(el) ?? standardPeople(el).assignee;
    if (assignee && !assignee.includes('${'))
      found.push({ id: el.id ?? el.$type, name: el.name, assignee: assignee.trim() });
  });
  return found;
}
