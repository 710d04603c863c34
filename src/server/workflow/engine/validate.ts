import { createRequire } from 'node:module';
import { checkExpression } from '../../../shared/expression/index.js';
import { DESIGNER_EXPORTER, labRuleBreaks } from '../../../shared/workflow/labRules.js';
import { badRequest } from '../../kernel/http/envelope.js';
import type { Locale } from '../../../shared/i18n/messages.js';
import { conditionProblem, eventProblems, uncaughtErrors } from './eventRules.js';
import { elementLabel, EXPRESSION_LABELS, expressionText, lintText, tell, typeName } from './problemMessages.js';

/**
 * What a model must satisfy before it is deployed: the structural rules of bpmnlint that hold for
 * executable Activiti models (a diagram without layout or labels still runs, so those rules are off),
 * and our own: only elements our engine runs, every expression
 * parses, a default flow carries no condition, a call activity names what it calls. A model saved by
 * our designer must also keep the lab's rules its live check shows (shared/workflow/labRules.ts says
 * why models from elsewhere need not).
 */
const require = createRequire(import.meta.url);
// bpmn-moddle and bpmnlint ship CommonJS without types; the few members used here are typed below.
type Moddle = new () => { fromXML(xml: string, type: string): Promise<{ rootElement: unknown }> };
type Linter = new (o: object) => { lint(root: unknown): Promise<Record<string, { message: string; id?: string }[]>> };
/** Required with the first model checked, not at every server start (they load some 80 files). */
const moddle = () => require('bpmn-moddle') as Moddle;

const LINT_RULES = [
  'no-disconnected',
  'start-event-required',
  'end-event-required',
  'single-blank-start-event',
  'conditional-flows',
  'no-complex-gateway',
  'single-event-definition',
];
// A new linter per model: some rules keep what they saw, so a shared one reports another model's flows.
const newLinter = () => {
  const { Linter } = require('bpmnlint') as { Linter: Linter };
  const NodeResolver = require('bpmnlint/lib/resolver/node-resolver') as new () => object;
  return new Linter({
    config: { rules: Object.fromEntries(LINT_RULES.map((r) => [r, 'error'])) },
    resolver: new NodeResolver(),
  });
};

/** Element types the engine runs; anything else would need code the lab cannot see in the model. */
const SUPPORTED = new Set([
  'bpmn:StartEvent',
  'bpmn:EndEvent',
  'bpmn:IntermediateThrowEvent',
  'bpmn:UserTask',
  'bpmn:Task',
  'bpmn:ManualTask',
  'bpmn:ReceiveTask',
  'bpmn:BoundaryEvent',
  'bpmn:IntermediateCatchEvent',
  'bpmn:EventBasedGateway',
  'bpmn:ExclusiveGateway',
  'bpmn:InclusiveGateway',
  'bpmn:ParallelGateway',
  'bpmn:SequenceFlow',
  'bpmn:SubProcess',
  'bpmn:CallActivity',
  'bpmn:TextAnnotation',
  'bpmn:Association',
  'bpmn:Group',
  'bpmn:DataObject',
  'bpmn:DataObjectReference',
  'bpmn:DataStoreReference',
  'bpmn:LaneSet',
]);

export interface ModdleElement {
  $type: string;
  /** Definitions: the tool that wrote the file (our designer stamps DESIGNER_EXPORTER). */
  exporter?: string;
  id?: string;
  name?: string;
  $attrs?: Record<string, string>;
  flowElements?: ModdleElement[];
  rootElements?: ModdleElement[];
  conditionExpression?: { body?: string };
  default?: ModdleElement;
  loopCharacteristics?: { $type: string; loopCardinality?: { body?: string }; completionCondition?: { body?: string } };
  calledElement?: string;
  eventDefinitions?: ModdleElement[];
  [key: string]: unknown;
}

/**
 * Activiti extension attributes arrive as `activiti:x` in $attrs (no activiti moddle package is loaded).
 * Camunda's and Flowable's attributes of the same names mean the same (assignee, candidateUsers,
 * candidateGroups, formKey, initiator...), so a model drawn in their tools reads as our Activiti dialect;
 * dialects.ts tells the user what was read so and what was left out.
 */
export const attr = (el: ModdleElement, name: string): string | undefined =>
  el.$attrs?.[`activiti:${name}`] ??
  el.$attrs?.[`lims:${name}`] ??
  el.$attrs?.[`camunda:${name}`] ??
  el.$attrs?.[`flowable:${name}`];

export async function readModel(xml: string): Promise<ModdleElement> {
  try {
    const { rootElement } = await new (moddle())().fromXML(xml, 'bpmn:Definitions');
    const definitions = rootElement as ModdleElement;
    for (const p of definitions.rootElements ?? []) linkFlows(p);
    return definitions;
  } catch (e) {
    throw badRequest('workflow.invalidModel', {
      detail: (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 200),
    });
  }
}

/**
 * Activiti files often omit <incoming>/<outgoing>; moddle then leaves those lists empty, and bpmnlint
 * would call every element disconnected. They are rebuilt from the flows' source and target.
 */
function linkFlows(scope: ModdleElement): void {
  for (const el of scope.flowElements ?? []) {
    // Every container of flows (sub-process, transaction, ad-hoc sub-process) has its own.
    if (el.flowElements) linkFlows(el);
    if (el.$type !== 'bpmn:SequenceFlow') continue;
    const add = (node: unknown, list: 'incoming' | 'outgoing') => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      const items = (n[list] as unknown[] | undefined) ?? [];
      if (!items.includes(el)) n[list] = [...items, el];
    };
    add(el.sourceRef, 'outgoing');
    add(el.targetRef, 'incoming');
  }
}

/**
 * Every problem of the model, each as "element: what is wrong" in the caller's language, the element
 * named by id and name; empty when it may be deployed. What the engine cannot run comes first, then
 * what a step would fail on (expressions, specimen steps, the lab's rules), the drawing's structural
 * problems (bpmnlint) last: all of them, none left out.
 * @param specimenSteps the specimen transitions a task may perform (lims:specimenStep); a task naming
 *   another would fail at every completion, so the model is refused at deploy instead.
 */
export async function modelProblems(
  definitions: ModdleElement,
  key: string,
  specimenSteps: readonly string[] = [],
  locale: Locale = 'en-US',
): Promise<string[]> {
  const found: Ranked[] = [];
  const label = (el: ModdleElement) => elementLabel(el, locale);
  const processes = (definitions.rootElements ?? []).filter((e) => e.$type === 'bpmn:Process');
  if (!processes.some((p) => p.id === key)) found.push({ rank: 0, text: tell('noProcess', locale, { key }) });
  const main = processes.find((p) => p.id === key);
  if (main?.isExecutable === false) found.push({ rank: 0, text: `${label(main)}: ${tell('notExecutable', locale)}` });
  const designed = definitions.exporter === DESIGNER_EXPORTER;
  for (const p of processes) walk(p, found, designed, locale);
  for (const p of processes) found.push(...uncaughtErrors(p, label, locale).map((text): Ranked => ({ rank: 0, text })));
  for (const p of processes)
    found.push(...stepProblems(p, specimenSteps, locale).map((text): Ranked => ({ rank: 1, text })));
  const byId = elementsById(definitions);
  const reports = await newLinter().lint(definitions);
  for (const [rule, list] of Object.entries(reports))
    for (const r of list) {
      const el = r.id ? byId.get(r.id) : undefined;
      found.push({
        rank: 2,
        text: `${el ? label(el) : (r.id ?? '?')}: ${lintText(rule, r.message, locale)} (${rule})`,
      });
    }
  // A stable sort: within a rank, the model's order.
  return found.sort((a, b) => a.rank - b.rank).map((p) => p.text);
}

/** A problem and how much it explains: 0 the engine cannot run it, 1 a step would fail, 2 the drawing's structure. */
interface Ranked {
  rank: 0 | 1 | 2;
  text: string;
}

function elementsById(definitions: ModdleElement): Map<string, ModdleElement> {
  const map = new Map<string, ModdleElement>();
  const visit = (el: ModdleElement) => {
    if (el.id) map.set(el.id, el);
    for (const child of el.flowElements ?? []) visit(child);
  };
  for (const root of definitions.rootElements ?? []) visit(root);
  return map;
}

function walk(scope: ModdleElement, found: Ranked[], designed: boolean, locale: Locale): void {
  const nested = scope.$type !== 'bpmn:Process';
  for (const el of scope.flowElements ?? []) {
    const where = elementLabel(el, locale);
    const add = (rank: Ranked['rank'], texts: (string | undefined)[]) =>
      found.push(...texts.filter((t): t is string => t !== undefined).map((text) => ({ rank, text })));
    if (!SUPPORTED.has(el.$type)) add(0, [`${where}: ${tell('unsupported', locale, { type: typeName(el.$type) })}`]);
    add(0, eventProblems(el, where, locale, nested));
    if (el.$type === 'bpmn:SequenceFlow') add(0, [conditionProblem(el, where, locale)]);
    add(1, checkElement(el, where, locale));
    if (designed)
      add(
        1,
        labRuleBreaks(el, (node, name) => attr(node as ModdleElement, name)).map(
          (rule) => `${where}: ${tell(rule, locale)} (${rule})`,
        ),
      );
    if (el.flowElements) walk(el, found, designed, locale);
  }
}

function stepProblems(scope: ModdleElement, steps: readonly string[], locale: Locale): string[] {
  return (scope.flowElements ?? []).flatMap((el) => {
    const step = attr(el, 'specimenStep');
    const own =
      step !== undefined && !steps.includes(step)
        ? [`${elementLabel(el, locale)}: ${tell('unknownStep', locale, { step, steps: steps.join(', ') })}`]
        : [];
    return el.$type === 'bpmn:SubProcess' ? [...own, ...stepProblems(el, steps, locale)] : own;
  });
}

function checkElement(el: ModdleElement, where: string, locale: Locale): string[] {
  const problems: string[] = [];
  const expr = (label: keyof typeof EXPRESSION_LABELS, text: string | undefined) => {
    const problem = text ? checkExpression(text) : undefined;
    if (problem)
      problems.push(
        `${where}: ${tell('expression', locale, { label: EXPRESSION_LABELS[label][locale], text: JSON.stringify(text), detail: expressionText(problem, locale) })}`,
      );
  };
  expr('name', el.name);
  if (el.$type === 'bpmn:UserTask') {
    // A task without candidates is legal (Activiti's own tests have many): the organisation's admins handle it.
    expr('formKey', attr(el, 'formKey'));
    expr('assignee', attr(el, 'assignee'));
  }
  if (el.$type === 'bpmn:CallActivity' && !el.calledElement)
    problems.push(`${where}: ${tell('noCalledElement', locale)}`);
  const loop = el.loopCharacteristics;
  if (loop) {
    expr('loopCardinality', loop.loopCardinality?.body?.trim());
    expr('completionCondition', loop.completionCondition?.body?.trim());
  }
  if (el.$type === 'bpmn:SequenceFlow' && el.conditionExpression)
    expr('condition', el.conditionExpression.body?.trim() || undefined);
  if (el.default?.conditionExpression)
    problems.push(`${elementLabel(el.default, locale)}: ${tell('defaultWithCondition', locale)}`);
  return problems;
}
