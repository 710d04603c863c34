import { describe, expect, it } from 'vitest';
import {
  checkExpression,
  evaluate,
  evaluateCondition,
  ExpressionError,
  variablesOf,
} from '../../src/shared/expression';

describe('workflow expressions (${...})', () => {
  it('compares form values the way the condition builder writes them', () => {
    expect(evaluateCondition("${result == 'pass'}", { result: 'pass' })).toBe(true);
    expect(evaluateCondition("${result != 'pass' && size >= 3.5}", { result: 'unpass', size: '4' })).toBe(true);
    expect(evaluateCondition('${input == 1 || !(input > 2)}', { input: 5 })).toBe(false);
    expect(evaluateCondition('\n   ${input <= 2}\n  ', { input: 2 })).toBe(true);
  });

  it('divides as floating point, so a 60 % pass weight is met at 3 of 5', () => {
    const weight = '${nrOfCompletedInstances/nrOfInstances >= 0.6}';
    expect(evaluateCondition(weight, { nrOfCompletedInstances: 2, nrOfInstances: 5 })).toBe(false);
    expect(evaluateCondition(weight, { nrOfCompletedInstances: 3, nrOfInstances: 5 })).toBe(true);
  });

  it('fills templates and returns typed values for a single expression', () => {
    expect(evaluate('form-${var}.json', { var: 'abc' })).toBe('form-abc.json');
    expect(evaluate('${5}', {})).toBe(5);
    expect(evaluate('plain text', {})).toBe('plain text');
  });

  it('fails with a clear message instead of taking a branch', () => {
    expect(() => evaluateCondition('${input == 1}', {})).toThrow(/variable "input" is not defined/);
    expect(() => evaluateCondition('${input}', { input: 3 })).toThrow(ExpressionError);
    expect(() => evaluate("${'a' > 1}", {})).toThrow(/needs numbers/);
  });

  it('refuses calls, properties and unknown operators when checked', () => {
    expect(checkExpression('${a.size() > 2}')).toMatch(/no properties or calls/);
    expect(checkExpression('${process.exit()}')).toMatch(/no properties or calls/);
    expect(checkExpression('${a = 1}')).toBeDefined();
    expect(checkExpression('${input ==}')).toMatch(/cannot parse/);
    expect(checkExpression("${result == 'pass'}")).toBeUndefined();
    expect(variablesOf("${result == 'pass' and size gt 2}")).toEqual(['result', 'size']);
  });
});
