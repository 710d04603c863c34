import { getDate, ISOInterval } from '@0dep/piso';
import { checkExpression } from '../../../shared/expression/index.js';
import type { Locale } from '../../../shared/i18n/messages.js';
import type { ModdleElement } from './validate.js';
import { expressionText, tell, typeName } from './problemMessages.js';

/**
 * The events the engine runs, checked at deploy: where each event definition may stand, a timer's
 * ISO 8601 text (or an expression), the message or signal a catch names, and an error end event that
 * something catches. Timers, messages and signals wait in workflow_catch (catches.ts).
 */
const ALLOWED: Record<string, string[]> = {
  // A start event's timer or message waits per deployment (startEvents.ts); a signal start is not run.
  'bpmn:StartEvent': ['bpmn:TimerEventDefinition', 'bpmn:MessageEventDefinition'],
  // A thrown signal reaches the instance's own catches (the engine) and the organisation's other instances.
  'bpmn:IntermediateThrowEvent': ['bpmn:SignalEventDefinition'],
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
  'bpmn:EndEvent': ['bpmn:TerminateEventDefinition', 'bpmn:ErrorEventDefinition', 'bpmn:SignalEventDefinition'],
};

const short = typeName;

interface TimerDef extends ModdleElement {
  timeDuration?: { body?: string };
  timeDate?: { body?: string };
  timeCycle?: { body?: string };
}

const NOT_ISO = { timeDate: 'timerNotDate', timeCycle: 'timerNotCycle', timeDuration: 'timerNotDuration' } as const;

/**
 * Why a timer's text cannot be run, or undefined: an expression is checked here and evaluated when the
 * timer starts, except on a start event, which fires before there is an instance with variables.
 */
export function timerProblem(def: TimerDef, locale: Locale = 'en-US', onStart = false): string | undefined {
  const kinds = (['timeDuration', 'timeDate', 'timeCycle'] as const).filter((k) => def[k]?.body?.trim());
  if (kinds.length !== 1) return tell('timerOne', locale);
  const kind = kinds[0]!;
  const text = def[kind]!.body!.trim();
  if (text.includes('${')) {
    if (onStart) return tell('startTimerExpression', locale, { text });
    const problem = checkExpression(text);
    return problem
      ? tell('timerExpression', locale, { kind, text, detail: expressionText(problem, locale) })
      : undefined;
  }
  try {
    if (kind === 'timeDate') {
      if (Number.isNaN(getDate(text).getTime())) throw new Error('not a date');
    } else {
      const parsed = new ISOInterval(text).parse();
      if (kind === 'timeDuration' && parsed.repeat) throw new Error('a duration does not repeat');
    }
  } catch {
    return tell(NOT_ISO[kind], locale, { kind, text });
  }
  return undefined;
}

function definitionProblem(el: ModdleElement, def: ModdleElement, locale: Locale, nested: boolean) {
  if (el.$type === 'bpmn:StartEvent' && def.$type === 'bpmn:SignalEventDefinition') return tell('signalStart', locale);
  if (!(ALLOWED[el.$type] ?? []).includes(def.$type))
    return tell('definitionNotAllowed', locale, { definition: short(def.$type), type: short(el.$type) });
  if (el.$type === 'bpmn:StartEvent' && nested)
    return tell('startInSubProcess', locale, { definition: short(def.$type) });
  if (def.$type === 'bpmn:TimerEventDefinition')
    return timerProblem(def as TimerDef, locale, el.$type === 'bpmn:StartEvent');
  if (def.$type === 'bpmn:MessageEventDefinition' && !def.messageRef) return tell('noMessageRef', locale);
  if (def.$type === 'bpmn:SignalEventDefinition' && !def.signalRef) return tell('noSignalRef', locale);
  if (def.$type === 'bpmn:ErrorEventDefinition' && el.$type === 'bpmn:BoundaryEvent') {
    const host = (el.attachedToRef as ModdleElement | undefined)?.$type;
    if (host !== 'bpmn:SubProcess' && host !== 'bpmn:CallActivity')
      return tell('errorBoundaryHost', locale, { type: short(host ?? '?') });
  }
  return undefined;
}

/**
 * The problems of one element's event definitions (none for an element without), each "where: why".
 * @param nested the element stands in a sub-process (where a timer or message start event is not run)
 */
export function eventProblems(el: ModdleElement, where: string, locale: Locale = 'en-US', nested = false): string[] {
  const defs = el.eventDefinitions ?? [];
  if (defs.length === 0) return [];
  if (!(el.$type in ALLOWED)) return [`${where}: ${tell('definitionsOn', locale, { type: short(el.$type) })}`];
  return defs
    .map((d) => definitionProblem(el, d, locale, nested))
    .filter((p): p is string => p !== undefined)
    .map((p) => `${where}: ${p}`);
}

const errorCode = (def: ModdleElement | undefined) =>
  (def?.errorRef as { errorCode?: string; id?: string } | undefined)?.errorCode ??
  (def?.errorRef as { id?: string } | undefined)?.id;

/**
 * An error end event must be caught by an error boundary event of a sub-process around it (with its
 * error, or catching any): an uncaught error would fail the instance at run time instead.
 */
export function uncaughtErrors(
  scope: ModdleElement,
  where: (el: ModdleElement) => string,
  locale: Locale = 'en-US',
): string[] {
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
          problems.push(`${where(el)}: ${tell('uncaughtError', locale, { code: code ? ` "${code}"` : '' })}`);
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
export function conditionProblem(flow: ModdleElement, where: string, locale: Locale = 'en-US'): string | undefined {
  const cond = flow.conditionExpression as { body?: string; language?: string } | undefined;
  if (!cond) return undefined;
  const language = (cond.language ?? '').trim().toLowerCase();
  if (!CONDITION_LANGUAGES.has(language))
    return `${where}: ${tell('conditionLanguage', locale, { language: cond.language ?? '' })}`;
  const body = cond.body?.trim() ?? '';
  if (body && !/^\$\{[\s\S]*\}$/.test(body))
    return `${where}: ${tell('conditionNotExpression', locale, { text: JSON.stringify(body) })}`;
  return undefined;
}
