import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluate, ExpressionError } from '../../src/shared/expression';

/**
 * Issue 20: the workflow models' expressions (`${...}`, spec 5) are written by lab staff in the designer
 * and evaluated on the server. Fuzzed with fast-check from a grammar that leans on what an attacker
 * would try (property access, calls, `constructor`, `__proto__`, `this`, template and arrow syntax,
 * huge nesting), every expression either gives a plain value (text, number, true/false, nothing) made
 * of its literals and the variables given, or fails with an ExpressionError: no other error, no value
 * read from a prototype or the process, and no change to any prototype.
 */
const RUNS = 10_000;
let evaluated = 0;
let refused = 0;
afterAll(() => console.log(`expression fuzz: ${evaluated} evaluated to a plain value, ${refused} refused`));

/** A secret every variable object inherits but does not own: no expression may read it. */
const SECRET = 'INHERITED-SECRET';
const variables = () => {
  const vars = Object.create({ secret: SECRET, hidden: SECRET }) as Record<string, unknown>;
  Object.assign(vars, { a: 1, b: 'two', c: true, d: null, n: 3.5, s: '5' });
  return vars;
};

const DANGEROUS = [
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'this',
  'globalThis',
  'process',
  'require',
  'import',
  'eval',
  'Function',
  'secret',
  'hidden',
  'window',
];
const name = fc.oneof(
  fc.constantFrom('a', 'b', 'c', 'd', 'n', 's', ...DANGEROUS),
  fc.stringMatching(/^[a-z_$][\w$]{0,5}$/),
);
const literal = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => String(d)),
  fc.string({ maxLength: 6 }).map((s) => `'${s.replace(/[\\']/g, '')}'`),
  fc.constantFrom('true', 'false', 'null', 'undefined', 'NaN', 'Infinity', '1e309', '/x/g', '[]', '{}', '`x`'),
);
const BINARY = [
  '==',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '&&',
  '||',
  '+',
  '-',
  '*',
  '/',
  '%',
  'and',
  'or',
  'eq',
  'div',
  '===',
  '=',
  '|',
  '&',
  '**',
  ',',
  'in',
  'instanceof',
  '??',
];

const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    name,
    literal,
    fc.tuple(tie('expr'), fc.constantFrom(...BINARY), tie('expr')).map(([l, op, r]) => `${l} ${op} ${r}`),
    fc
      .tuple(fc.constantFrom('!', '-', '+', 'not ', 'typeof ', 'void ', 'new ', 'delete ', '~'), tie('expr'))
      .map(([op, e]) => `${op}${e}`),
    tie('expr').map((e) => `(${e})`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([t, c, a]) => `${t} ? ${c} : ${a}`),
    // Reaching into objects: property access, indexing, calls, arrows, assignments.
    fc.tuple(name, fc.constantFrom(...DANGEROUS)).map(([o, p]) => `${o}.${p}`),
    fc.tuple(name, fc.constantFrom(...DANGEROUS)).map(([o, p]) => `${o}['${p}']`),
    fc.tuple(name, tie('expr')).map(([f, arg]) => `${f}(${arg})`),
    fc.tuple(name, tie('expr')).map(([v, e]) => `(${v}) => ${e}`),
    fc.tuple(name, tie('expr')).map(([v, e]) => `${v} = ${e}`),
    tie('expr').map((e) => `[${e}]`),
  ),
}));

/** Whole texts: one `${...}`, a template with several, or arbitrary text with stray `${`. */
const text = fc.oneof(
  expr.map((e) => `\${${e}}`),
  fc
    .tuple(fc.string({ maxLength: 5 }), expr, fc.string({ maxLength: 5 }), expr)
    .map(([x, e1, y, e2]) => `${x}\${${e1}}${y}\${${e2}}`),
  fc.string({ maxLength: 40 }).map((s) => `\${${s}}`),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** Strings a value may hold only if reached through an object or the runtime. */
const LEAKS = [SECRET, 'function', '[object', 'native code', 'class ', '=>'];

function check(source: string) {
  const before = Object.getOwnPropertyNames(Object.prototype).length;
  let value: unknown;
  try {
    value = evaluate(source, variables());
  } catch (e) {
    // A refusal is an ExpressionError with a message; anything else (TypeError, stack overflow) is a bug.
    expect(e, source).toBeInstanceOf(ExpressionError);
    expect((e as Error).message.length).toBeGreaterThan(0);
    refused++;
    return;
  } finally {
    expect(Object.getOwnPropertyNames(Object.prototype).length).toBe(before);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  }
  evaluated++;
  expect(value === null || ['string', 'number', 'boolean'].includes(typeof value), source).toBe(true);
  if (typeof value === 'string')
    for (const leak of LEAKS) if (!source.includes(leak)) expect(value, source).not.toContain(leak);
}

describe('expression evaluator under fuzzing', () => {
  it(`gives a plain value or an ExpressionError for ${RUNS} generated expressions, never reaching past its variables`, () => {
    fc.assert(
      fc.property(text, (source) => {
        check(source);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('refuses every named way to a prototype, a global or a function', () => {
    const attempts = [
      '${constructor}',
      '${__proto__}',
      '${secret}',
      '${a.constructor}',
      "${b['constructor']['constructor']('return process')()}",
      '${toString}',
      '${this}',
      '${globalThis}',
      '${process.env}',
      '${(x) => x}',
      '${a = 5}',
      '${[a]}',
      '${`x`}',
      '${/x/.source}',
      '${new Function()}',
      '${a.__proto__.admin = true}',
    ];
    for (const source of attempts) expect(() => evaluate(source, variables()), source).toThrow(ExpressionError);
  });

  it('refuses nesting deep enough to overflow the stack with an ExpressionError', () => {
    for (const depth of [1_000, 10_000, 100_000]) {
      check(`\${${'('.repeat(depth)}a${')'.repeat(depth)}}`);
      check(`\${${'!'.repeat(depth)}c}`);
      check(`\${${Array.from({ length: depth }, () => 'a').join(' + ')}}`);
    }
  }, 60_000);
});
