import type { Locale } from '../../../shared/i18n/messages.js';

type Message = Record<Locale, string>;

/**
 * What deploy says about a model, in the caller's language (zh-CN default, en-US): each problem names
 * its element (id and name) and what is wrong; {x} are filled in by `tell`. The English keeps the words
 * users and tests already know; the lab rules use the designer's own words (web/workflow/designer/lint.ts).
 */
export const PROBLEMS = {
  noProcess: { 'zh-CN': '没有 id 为“{key}”的流程', 'en-US': 'no process with id "{key}"' },
  notExecutable: {
    'zh-CN': '流程标记为 isExecutable="false"（不用于运行），标记为可执行后才能部署',
    'en-US': 'the process is marked isExecutable="false" (not meant to run), mark it executable to deploy it',
  },
  unsupported: { 'zh-CN': '引擎不支持{type}', 'en-US': '{type} is not supported by the engine' },
  definitionNotAllowed: {
    'zh-CN': '引擎不支持{type}上的{definition}',
    'en-US': 'a {definition} on a {type} is not supported by the engine',
  },
  definitionsOn: {
    'zh-CN': '引擎不支持{type}上的事件定义',
    'en-US': 'event definitions on a {type} are not supported',
  },
  signalStart: {
    'zh-CN': '引擎不运行信号开始事件（信号只送达已在运行、正在等待它的实例），请用消息或定时开始事件启动流程',
    'en-US':
      'a signal start event is not run by the engine (a signal reaches only running instances waiting for it), start the process by a message or a timer instead',
  },
  startInSubProcess: {
    'zh-CN': '子流程内的{definition}开始事件不运行：定时和消息开始事件只用于启动整个流程',
    'en-US':
      'a {definition} start event inside a sub-process is not run: timer and message start events start a whole process',
  },
  startTimerExpression: {
    'zh-CN': '定时开始事件的时间不能用表达式（{text}）：触发前还没有实例，也就没有变量',
    'en-US':
      'a timer start event cannot take its time from an expression ({text}): before it fires there is no instance, so no variables',
  },
  timerOne: {
    'zh-CN': '定时器必须且只能有 timeDuration、timeDate、timeCycle 其中之一',
    'en-US': 'a timer needs exactly one of timeDuration, timeDate or timeCycle',
  },
  timerExpression: { 'zh-CN': '{kind} “{text}”：{detail}', 'en-US': '{kind} "{text}": {detail}' },
  timerNotDate: {
    'zh-CN': '{kind} “{text}”不是 ISO 8601 日期（如 2026-12-01T08:00:00Z）',
    'en-US': '{kind} "{text}" is not an ISO 8601 date',
  },
  timerNotCycle: {
    'zh-CN': '{kind} “{text}”不是 ISO 8601 循环（如 R3/PT1H）',
    'en-US': '{kind} "{text}" is not an ISO 8601 cycle (R3/PT1H)',
  },
  timerNotDuration: {
    'zh-CN': '{kind} “{text}”不是 ISO 8601 时长（如 PT2H）',
    'en-US': '{kind} "{text}" is not an ISO 8601 duration (PT2H)',
  },
  noMessageRef: {
    'zh-CN': '消息事件没有指定消息（messageRef）',
    'en-US': 'the message event names no message (messageRef)',
  },
  noSignalRef: {
    'zh-CN': '信号事件没有指定信号（signalRef）',
    'en-US': 'the signal event names no signal (signalRef)',
  },
  errorBoundaryHost: {
    'zh-CN': '错误边界事件只捕获子流程或调用活动的错误，不能挂在{type}上',
    'en-US': 'an error boundary event catches errors of a sub-process or call activity, not of a {type}',
  },
  uncaughtError: {
    'zh-CN': '外围子流程没有错误边界事件捕获它的错误{code}',
    'en-US': 'no error boundary event of a sub-process around it catches its error{code}',
  },
  conditionLanguage: {
    'zh-CN': '条件使用“{language}”语言编写，引擎无法计算，请写成 ${...}',
    'en-US': 'the condition is written in "{language}", which the engine does not evaluate, write it as ${...}',
  },
  conditionNotExpression: {
    'zh-CN': '条件 {text} 不是 ${...} 表达式，无法计算',
    'en-US': 'the condition {text} is not a ${...} expression, so it cannot be evaluated',
  },
  expression: { 'zh-CN': '{label} {text}：{detail}', 'en-US': '{label} {text}: {detail}' },
  noCalledElement: {
    'zh-CN': '调用活动没有指定被调用的流程（calledElement）',
    'en-US': 'the call activity names no calledElement',
  },
  defaultWithCondition: {
    'zh-CN': '默认连线不能带条件',
    'en-US': 'a default flow must not carry a condition',
  },
  unknownStep: {
    'zh-CN': '“{step}”不是任务可执行的标本步骤（{steps}）',
    'en-US': '"{step}" is not a specimen step a task may take ({steps})',
  },
  'user-task-form': { 'zh-CN': '用户任务未设置表单(formKey)', 'en-US': 'the user task has no form (formKey)' },
  'user-task-groups': {
    'zh-CN': '用户任务未设置岗位(candidateGroups)',
    'en-US': 'the user task has no positions (candidateGroups)',
  },
  'gateway-flow-order': {
    'zh-CN': '网关的连线未排序（无连线顺序设置）',
    'en-US': 'the conditional flows of the gateway are not ordered (flow order)',
  },
  // Warnings: the model deploys, and the user learns what was read differently or left out.
  dialectRead: { 'zh-CN': '{names} 已按 Activiti 的属性读取', 'en-US': "{names} read as Activiti's" },
  listenersNotRun: { 'zh-CN': '{names} 本引擎不运行', 'en-US': '{names} not run by this engine' },
  attributesDropped: {
    'zh-CN': '{names} 本引擎不运行，已忽略',
    'en-US': '{names} not run by this engine, left out',
  },
  missingAssignee: {
    'zh-CN': '办理人“{account}”在本机构没有账号，它的任务将等待转办',
    'en-US': 'the assignee "{account}" has no account here, its tasks wait until reassigned',
  },
} satisfies Record<string, Message>;

export type ProblemKey = keyof typeof PROBLEMS;

/** What an expression is, in the words of the problem naming it. */
export const EXPRESSION_LABELS = {
  name: { 'zh-CN': '名称', 'en-US': 'name' },
  formKey: { 'zh-CN': '表单', 'en-US': 'form key' },
  assignee: { 'zh-CN': '办理人', 'en-US': 'assignee' },
  loopCardinality: { 'zh-CN': '循环次数', 'en-US': 'loop cardinality' },
  completionCondition: { 'zh-CN': '完成条件', 'en-US': 'completion condition' },
  condition: { 'zh-CN': '条件', 'en-US': 'condition' },
} satisfies Record<string, Message>;

/**
 * bpmnlint's structural rules in Chinese; English keeps bpmnlint's own message. A rule not listed
 * here (a newer bpmnlint) shows its own message in both.
 */
const LINT_ZH: Record<string, string> = {
  'no-disconnected': '元素没有连线',
  'start-event-required': '缺少开始事件',
  'end-event-required': '缺少结束事件',
  'single-blank-start-event': '有多个空白开始事件',
  'conditional-flows': '连线缺少条件',
  'no-complex-gateway': '不支持复杂网关',
  'single-event-definition': '事件有多个事件定义',
};

/** The expression checker's reasons (shared/expression) in Chinese; the parser's own detail after "cannot parse" stays as it is. */
const EXPRESSION_ZH: [RegExp, string][] = [
  [/^"\$\{" is not closed by "\}"$/, '“${”没有对应的“}”'],
  [/^the expression is empty$/, '表达式为空'],
  [/^cannot parse: /, '无法解析：'],
  [/^the expression nests deeper than (\d+) levels$/, '表达式嵌套超过 $1 层'],
  [/^regular expressions are not allowed$/, '表达式中不允许使用正则表达式'],
  [/^operator "(.+)" is not allowed$/, '表达式中不允许使用运算符“$1”'],
  [/^"(.+)" is not allowed in an expression$/, '表达式中不允许使用“$1”'],
];

export function expressionText(problem: string, locale: Locale): string {
  if (locale !== 'zh-CN') return problem;
  const hit = EXPRESSION_ZH.find(([re]) => re.test(problem));
  return hit ? problem.replace(hit[0], hit[1]) : problem;
}

export const lintText = (rule: string, message: string, locale: Locale) =>
  locale === 'zh-CN' ? (LINT_ZH[rule] ?? message) : message;

export function tell(key: ProblemKey, locale: Locale, vars: Record<string, string | number> = {}): string {
  return PROBLEMS[key][locale].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
}

/** An element as a problem names it: its id, and its name when it has one. */
export function elementLabel(el: { id?: string; name?: string; $type?: string }, locale: Locale): string {
  const id = el.id ?? el.$type ?? '?';
  const name = el.name?.trim();
  if (!name || name === id) return id;
  return locale === 'zh-CN' ? `${id}「${name}」` : `${id} (${name})`;
}

/** An element type as the user reads it: the BPMN name without its prefix. */
export const typeName = (type: string) => type.replace('bpmn:', '');
