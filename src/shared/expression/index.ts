import jsep from 'jsep';

/**
 * The expression language of the workflow models: Activiti's `${...}` (JUEL) as the condition builder
 * writes it (spec 5): comparisons, && || !, parentheses, arithmetic, string / number / boolean literals
 * and bare variable names read from the process instance. Parsed by jsep and walked here over a fixed
 * set of node types, so nothing in a model can call a function or reach an object's properties.
 * The designer checks expressions with checkExpression; the engine evaluates them with evaluate.
 */

export type Value = string | number | boolean | null;
export type Variables = Readonly<Record<string, unknown>>;

/** An expression that cannot be parsed or evaluated; the message says which and why. */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly expression: string,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

type Part = { text: string } | { expr: string };

/** Splits `form-${var}.json` into literal text and `${...}` bodies; quotes inside a body may hold braces. */
export function splitTemplate(text: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  let literal = '';
  while (i < text.length) {
    const open = text.indexOf('${', i);
    if (open < 0) break;
    literal += text.slice(i, open);
    const close = closingBrace(text, open + 2);
    if (close < 0) throw new ExpressionError('"${" is not closed by "}"', text);
    if (literal) parts.push({ text: literal });
    literal = '';
    parts.push({ expr: text.slice(open + 2, close) });
    i = close + 1;
  }
  literal += text.slice(i);
  if (literal) parts.push({ text: literal });
  return parts;
}

function closingBrace(text: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '}') return i;
  }
  return -1;
}

export const hasExpression = (text: string | null | undefined): boolean =>
  typeof text === 'string' && text.includes('${');

const BINARY = new Set(['==', '!=', '<', '>', '<=', '>=', '&&', '||', '+', '-', '*', '/', '%']);
const UNARY = new Set(['!', '-', '+']);
/** JUEL's word operators, read as their symbols. */
const WORDS: Record<string, string> = {
  and: '&&',
  or: '||',
  not: '!',
  eq: '==',
  ne: '!=',
  lt: '<',
  gt: '>',
  le: '<=',
  ge: '>=',
  div: '/',
  mod: '%',
};

function rewriteWords(body: string): string {
  // Outside quotes only, so a value like 'and' in a string stays as written.
  return body.replace(
    /('(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")|\b(and|or|not|eq|ne|lt|gt|le|ge|div|mod)\b/g,
    (m, str: string | undefined, word: string | undefined) => (str !== undefined ? m : ` ${WORDS[word!]!} `),
  );
}

const cache = new Map<string, jsep.Expression>();

/** Parses one `${...}` body; anything beyond the language's node types is refused here, not at run time. */
export function parseBody(body: string, whole = body): jsep.Expression {
  const hit = cache.get(body);
  if (hit) return hit;
  if (!body.trim()) throw new ExpressionError('the expression is empty', whole);
  let ast: jsep.Expression;
  try {
    ast = jsep(rewriteWords(body));
  } catch (e) {
    throw new ExpressionError(`cannot parse: ${(e as Error).message}`, whole);
  }
  checkNode(ast, whole);
  if (cache.size > 5000) cache.clear();
  cache.set(body, ast);
  return ast;
}

/**
 * Deeper than any condition a person writes: a generated `a + a + …` of a hundred thousand terms would
 * otherwise overflow the stack of the walks below (a RangeError, not a message about the model).
 */
const MAX_NESTING = 200;

function checkNode(node: jsep.Expression, whole: string, depth = 0): void {
  if (depth > MAX_NESTING) throw new ExpressionError(`the expression nests deeper than ${MAX_NESTING} levels`, whole);
  const next = depth + 1;
  switch (node.type) {
    case 'Literal':
      if ((node as jsep.Literal).value instanceof RegExp)
        throw new ExpressionError('regular expressions are not allowed', whole);
      return;
    case 'Identifier':
      return;
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      if (!UNARY.has(u.operator)) throw new ExpressionError(`operator "${u.operator}" is not allowed`, whole);
      return checkNode(u.argument, whole, next);
    }
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      if (!BINARY.has(b.operator)) throw new ExpressionError(`operator "${b.operator}" is not allowed`, whole);
      checkNode(b.left, whole, next);
      return checkNode(b.right, whole, next);
    }
    case 'ConditionalExpression': {
      const c = node as jsep.ConditionalExpression;
      checkNode(c.test, whole, next);
      checkNode(c.consequent, whole, next);
      return checkNode(c.alternate, whole, next);
    }
    case 'MemberExpression':
    case 'CallExpression':
      throw new ExpressionError(
        'only variable names, literals and operators are allowed (no properties or calls)',
        whole,
      );
    default:
      throw new ExpressionError(`"${node.type}" is not allowed in an expression`, whole);
  }
}

/** For the designer: undefined when the text is a valid expression (or plain text), else the problem. */
export function checkExpression(text: string): string | undefined {
  try {
    for (const part of splitTemplate(text)) if ('expr' in part) parseBody(part.expr, text);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The variable names an expression reads (the designer lists them; the engine needs nothing more). */
export function variablesOf(text: string): string[] {
  const names = new Set<string>();
  const walk = (n: jsep.Expression): void => {
    if (n.type === 'Identifier') names.add((n as jsep.Identifier).name);
    for (const key of ['left', 'right', 'argument', 'test', 'consequent', 'alternate'])
      if (n[key] && typeof n[key] === 'object') walk(n[key] as jsep.Expression);
  };
  for (const part of splitTemplate(text)) if ('expr' in part) walk(parseBody(part.expr, text));
  return [...names];
}

/**
 * Evaluates a text: a single `${...}` gives its value (number, boolean, …); text with expressions inside
 * gives the text with each replaced; text without any is returned as is. Throws ExpressionError.
 */
export function evaluate(text: string, variables: Variables): unknown {
  const trimmed = text.trim();
  const parts = splitTemplate(trimmed);
  const only = parts.length === 1 ? parts[0]! : undefined;
  if (only && 'expr' in only) return run(parseBody(only.expr, trimmed), variables, trimmed);
  if (!parts.some((p) => 'expr' in p)) return text;
  return parts
    .map((p) => ('expr' in p ? display(run(parseBody(p.expr, trimmed), variables, trimmed)) : p.text))
    .join('');
}

/** A condition must come out true or false; anything else is an error, never a silent branch. */
export function evaluateCondition(text: string, variables: Variables): boolean {
  const value = evaluate(text, variables);
  if (typeof value !== 'boolean')
    throw new ExpressionError(`the condition gives ${JSON.stringify(value)}, not true or false`, text.trim());
  return value;
}

const display = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function run(node: jsep.Expression, vars: Variables, whole: string): Value {
  const fail = (message: string): never => {
    throw new ExpressionError(message, whole);
  };
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value as Value;
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (!Object.prototype.hasOwnProperty.call(vars, name)) return fail(`variable "${name}" is not defined`);
      return toValue(vars[name], name, fail);
    }
    case 'UnaryExpression': {
      const u = node as jsep.UnaryExpression;
      const v = run(u.argument, vars, whole);
      if (u.operator === '!') return !asBoolean(v, fail);
      const n = asNumber(v, u.operator, fail);
      return u.operator === '-' ? -n : n;
    }
    case 'ConditionalExpression': {
      const c = node as jsep.ConditionalExpression;
      return asBoolean(run(c.test, vars, whole), fail) ? run(c.consequent, vars, whole) : run(c.alternate, vars, whole);
    }
    case 'BinaryExpression':
      return binary(node as jsep.BinaryExpression, vars, whole, fail);
    default:
      return fail(`"${node.type}" is not allowed in an expression`);
  }
}

function binary(b: jsep.BinaryExpression, vars: Variables, whole: string, fail: (m: string) => never): Value {
  if (b.operator === '&&')
    return asBoolean(run(b.left, vars, whole), fail) && asBoolean(run(b.right, vars, whole), fail);
  if (b.operator === '||')
    return asBoolean(run(b.left, vars, whole), fail) || asBoolean(run(b.right, vars, whole), fail);
  const l = run(b.left, vars, whole);
  const r = run(b.right, vars, whole);
  switch (b.operator) {
    case '==':
      return equals(l, r);
    case '!=':
      return !equals(l, r);
    case '<':
    case '>':
    case '<=':
    case '>=':
      return compare(b.operator, l, r, fail);
    case '+':
      // JUEL's + is arithmetic only; joining text is what the `${a}${b}` template form is for.
      return asNumber(l, '+', fail) + asNumber(r, '+', fail);
    default:
      return arithmetic(b.operator, asNumber(l, b.operator, fail), asNumber(r, b.operator, fail), fail);
  }
}

function arithmetic(op: string, l: number, r: number, fail: (m: string) => never): number {
  if ((op === '/' || op === '%') && r === 0) return fail('division by zero');
  if (op === '-') return l - r;
  if (op === '*') return l * r;
  // Floating-point division, as in EL: 3/5 is 0.6, never 0.
  if (op === '/') return l / r;
  return l % r;
}

function toValue(v: unknown, name: string, fail: (m: string) => never): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : fail(`variable "${name}" is not a finite number`);
  return fail(`variable "${name}" holds a ${Array.isArray(v) ? 'list' : typeof v}, which cannot be compared`);
}

const NUMERIC = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;

/** EL coercion: a number compared with numeric text compares as numbers (form values arrive as text). */
function equals(l: Value, r: Value): boolean {
  if (typeof l === 'number' && typeof r === 'string') return NUMERIC.test(r) && l === Number(r);
  if (typeof r === 'number' && typeof l === 'string') return NUMERIC.test(l) && r === Number(l);
  if (typeof l === 'boolean' && typeof r === 'string') return String(l) === r;
  if (typeof r === 'boolean' && typeof l === 'string') return String(r) === l;
  return l === r;
}

function compare(op: string, l: Value, r: Value, fail: (m: string) => never): boolean {
  let a: number | string;
  let b: number | string;
  if (typeof l === 'string' && typeof r === 'string' && !(NUMERIC.test(l) && NUMERIC.test(r))) [a, b] = [l, r];
  else [a, b] = [asNumber(l, op, fail), asNumber(r, op, fail)];
  if (op === '<') return a < b;
  if (op === '>') return a > b;
  if (op === '<=') return a <= b;
  return a >= b;
}

function asNumber(v: Value, op: string, fail: (m: string) => never): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMERIC.test(v)) return Number(v);
  return fail(`"${op}" needs numbers, got ${JSON.stringify(v)}`);
}

function asBoolean(v: Value, fail: (m: string) => never): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  return fail(`expected true or false, got ${JSON.stringify(v)}`);
}
