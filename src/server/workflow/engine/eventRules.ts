import { getDate, ISOInterval } from '@0dep/piso';
import { checkExpression } from '../../../shared/expression/index.js';
import type { ModdleElement } from './validate.js';

/**
 * The events the engine runs, checked at deploy: where each event definition may stand, a timer's
 * ISO 8601 text (or an expression), the message or signal a catch names, and an error end event that
 * something catches. Timers, messages and signals wait in workflow_catch (catches.ts).
 */
const ALLOWED: Record<string, string[]> = {
  'bpmn:StartEvent': ['bpmn:TimerEventDefinition'],
  'bpmn:IntermediateCatchEvent': [
    'bpmn:TimerEventDefinition',
    'bpmn:MessageEventDefinition',
    'bpmn:SignalEventDefinition',
  ],
  'bpmn:BoundaryEvent': [
    'bpmn:TimerEventDefinition',
    'bpmn:MessageEventDefinition',
    'bpmn:SignalEventDefinition',
    'bpmn:ErrorEventDefinition',
  ],
  'bpmn:EndEvent': ['bpmn:TerminateEventDefinition', 'bpmn:ErrorEventDefinition'],
};

const short = (type: string) => type.replace('bpmn:', '');

interface TimerDef extends ModdleElement {
  timeDuration?: { body?: string };
  timeDate?: { body?: string };
  timeCycle?: { body?: string };
}

/** Why a timer's text cannot be run, or undefined: an expression is checked here and evaluated when the timer starts. */
export function timerProblem(def: TimerDef): string | undefined {
  const kinds = (['timeDuration', 'timeDate', 'timeCycle'] as const).filter((k) => def[k]?.body?.trim());
  if (kinds.length !== 1) return 'a timer needs exactly one of timeDuration, timeDate or timeCycle';
  const kind = kinds[0]!;
  const text = def[kind]!.body!.trim();
  if (text.includes('${')) {
    const problem = checkExpression(text);
    return problem ? `${kind} ${JSON.stringify(text)}: ${problem}` : undefined;
  }
  try {
    if (kind === 'timeDate') {
      if (Number.isNaN(getDate(text).getTime())) throw new Error('not a date');
    } else {
      const parsed = new ISOInterval(text).parse();
      if (kind === 'timeDuration' && parsed.repeat) throw new Error('a duration does not repeat');
    }
  } catch {
    return `${kind} ${JSON.stringify(text)} is not an ISO 8601 ${kind === 'timeDate' ? 'date' : kind === 'timeCycle' ? 'cycle (R3/PT1H)' : 'duration (PT2H)'}`;
  }
  return undefined;
}

function definitionProblem(el: ModdleElement, def: ModdleElement, where: string): string | undefined {
  if (!(ALLOWED[el.$type] ?? []).includes(def.$type))
    return `${where}: a ${short(def.$type)} on a ${short(el.$type)} is not supported by the engine`;
  if (def.$type === 'bpmn:TimerEventDefinition') {
    const problem = timerProblem(def as TimerDef);
    return problem ? `${where}: ${problem}` : undefined;
  }
  if (def.$type === 'bpmn:MessageEventDefinition' && !def.messageRef)
    return `${where}: the message event names no message (messageRef)`;
  if (def.$type === 'bpmn:SignalEventDefinition' && !def.signalRef)
    return `${where}: the signal event names no signal (signalRef)`;
  if (def.$type === 'bpmn:ErrorEventDefinition' && el.$type === 'bpmn:BoundaryEvent') {
    const host = (el.attachedToRef as ModdleElement | undefined)?.$type;
    if (host !== 'bpmn:SubProcess' && host !== 'bpmn:CallActivity')
      return `${where}: an error boundary event catches errors of a sub-process or call activity, not of a ${short(host ?? '?')}`;
  }
  return undefined;
}

/** The problems of one element's event definitions (none for an element without). */
export function eventProblems(el: ModdleElement, where: string): string[] {
  const defs = el.eventDefinitions ?? [];
  if (defs.length === 0) return [];
  if (!(el.$type in ALLOWED)) return [`${where}: event definitions on a ${short(el.$type)} are not supported`];
  return defs.map((d) => definitionProblem(el, d, where)).filter((p): p is string => p !== undefined);
}

const errorCode = (def: ModdleElement | undefined) =>
  (def?.errorRef as { errorCode?: string; id?: string } | undefined)?.errorCode ??
  (def?.errorRef as { id?: string } | undefined)?.id;

/**
 * An error end event must be caught by an error boundary event of a sub-process around it (with its
 * error, or catching any): an uncaught error would fail the instance at run time instead.
 */
export function uncaughtErrors(scope: ModdleElement, where: (el: ModdleElement) => string): string[] {
  const problems: string[] = [];
  const walk = (container: ModdleElement, catchers: ModdleElement[][]) => {
    for (const el of container.flowElements ?? []) {
      const def = el.eventDefinitions?.find((d) => d.$type === 'bpmn:ErrorEventDefinition');
      if (el.$type === 'bpmn:EndEvent' && def) {
        const code = errorCode(def);
        const caught = catchers.some((level) =>
          level.some((b) => {
            const c = errorCode(b.eventDefinitions?.find((d) => d.$type === 'bpmn:ErrorEventDefinition'));
            return c === undefined || c === code;
          }),
        );
        if (!caught)
          problems.push(
            `${where(el)}: no error boundary event of a sub-process around it catches its error${code ? ` "${code}"` : ''}`,
          );
      }
      if (el.$type === 'bpmn:SubProcess') {
        const boundary = (container.flowElements ?? []).filter(
          (b) =>
            b.$type === 'bpmn:BoundaryEvent' &&
            b.attachedToRef === el &&
            b.eventDefinitions?.some((d) => d.$type === 'bpmn:ErrorEventDefinition'),
        );
        walk(el, [...catchers, boundary]);
      }
    }
  };
  walk(scope, []);
  return problems;
}

/** Languages whose conditions our expression handler evaluates: JUEL-like `${...}` (Activiti's default). */
const CONDITION_LANGUAGES = new Set(['', 'juel', 'el', 'http://www.w3.org/1999/xpath']);

/**
 * A condition we cannot evaluate must not count as true: a script language, or text that is not one
 * `${...}` expression, is refused with the flow named.
 */
export function conditionProblem(flow: ModdleElement, where: string): string | undefined {
  const cond = flow.conditionExpression as { body?: string; language?: string } | undefined;
  if (!cond) return undefined;
  const language = (cond.language ?? '').trim().toLowerCase();
  if (!CONDITION_LANGUAGES.has(language))
    return `${where}: the condition is written in "${cond.language}", which the engine does not evaluate; write it as \${...}`;
  const body = cond.body?.trim() ?? '';
  if (body && !/^\$\{[\s\S]*\}$/.test(body))
    return `${where}: the condition ${JSON.stringify(body)} is not a \${...} expression, so it cannot be evaluated`;
  return undefined;
}
