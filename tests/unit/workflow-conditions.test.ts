import { describe, expect, it } from 'vitest';
import { evaluateCondition } from '../../src/shared/expression';
import {
  buildExpression,
  newRow,
  parseExpression,
  passWeightCondition,
  passWeightOf,
  rowProblems,
} from '../../src/shared/expression/conditions';
import { isNumericControl } from '../../src/shared/forms/formPage';

describe('condition builder expressions (spec 2.4, 5)', () => {
  it('quotes the values of text variables, leaves those of numeric variables bare and joins rows by their logic', () => {
    const rows = [
      newRow({ formId: 'F1', variable: 'result', conditionalOpt: '==', conditionalVal: 'pass', logic: '&&' }),
      newRow({
        formId: 'F3',
        variable: 'tumorSize',
        conditionalOpt: '>=',
        conditionalVal: '3.5',
        logic: '||',
        numeric: true,
      }),
      newRow({ formId: 'F2', variable: 'site', conditionalOpt: '!=', conditionalVal: "it's" }),
    ];
    const built = buildExpression(rows);
    expect(built.expression).toBe("${result == 'pass' && tumorSize >= 3.5 || site != 'it\\'s'}");
    expect(built.formId).toBe('F1,F3,F2');
    const back = parseExpression(built.expression, built.formId)!;
    expect(back.map(({ id: _id, ...r }) => r)).toEqual(rows.map(({ id: _id, ...r }) => r));
  });

  it('decides quoting by the variable, not the value: a text control compared with 5 gets the text 5', () => {
    const text = newRow({
      formId: 'F1',
      variable: 'clinicalDiagnosis',
      conditionalOpt: '==',
      conditionalVal: '5',
    });
    const number = newRow({
      formId: 'F1',
      variable: 'specimenCount',
      conditionalOpt: '==',
      conditionalVal: '5',
      numeric: true,
    });
    expect(buildExpression([text]).expression).toBe("${clinicalDiagnosis == '5'}");
    expect(buildExpression([number]).expression).toBe('${specimenCount == 5}');
    // A numeric variable keeps a value that looks like text as a number would never match it: refused.
    expect(rowProblems([{ ...number, conditionalVal: 'abc' }])).toEqual(['第1个条件,数值变量的值须为数字']);
    // Text that happens to read like a word or a negative number stays quoted for a text variable.
    expect(
      buildExpression([
        { ...text, conditionalVal: '-2.5', logic: '&&' },
        { ...text, conditionalVal: 'x' },
      ]).expression,
    ).toBe("${clinicalDiagnosis == '-2.5' && clinicalDiagnosis == 'x'}");

    // Round trip: a reopened flow gives back each row with its variable's kind.
    const rows = [
      { ...text, logic: '||' as const },
      { ...number, conditionalOpt: '>=' as const },
    ];
    const built = buildExpression(rows);
    expect(built.expression).toBe("${clinicalDiagnosis == '5' || specimenCount >= 5}");
    const back = parseExpression(built.expression, built.formId)!;
    expect(back.map(({ id: _id, ...r }) => r)).toEqual(rows.map(({ id: _id, ...r }) => r));
    expect(buildExpression(back).expression).toBe(built.expression);

    // What the engine makes of them, with form values as they arrive (text).
    expect(evaluateCondition(built.expression, { clinicalDiagnosis: '5', specimenCount: '1' })).toBe(true);
    expect(evaluateCondition(built.expression, { clinicalDiagnosis: 'x', specimenCount: '6' })).toBe(true);
    expect(evaluateCondition(built.expression, { clinicalDiagnosis: 'x', specimenCount: '4' })).toBe(false);
  });

  it("reads a numeric variable from the form element's declared control type", () => {
    expect(isNumericControl({ controlType: 'number' })).toBe(true);
    expect(isNumericControl({ controlType: 'input', numeric: true })).toBe(true);
    // An element with no declared type is a text input, as the task form shows it.
    expect(isNumericControl({ numeric: true })).toBe(true);
    expect(isNumericControl({ controlType: 'input' })).toBe(false);
    expect(isNumericControl({ controlType: 'textarea', numeric: true })).toBe(false);
    expect(isNumericControl({ controlType: 'select' })).toBe(false);
    expect(isNumericControl({ controlType: 'result' })).toBe(false);
  });

  it('names every missing part and missing logic in the spec messages', () => {
    const problems = rowProblems([newRow({ variable: 'a', conditionalOpt: '==' }), newRow({ conditionalVal: '1' })]);
    expect(problems).toEqual([
      '第1个条件,变量值不能为空',
      '配置多个条件时，须配置逻辑,第1个条件逻辑未配置',
      '第2个条件,变量不能为空',
      '第2个条件,操作符不能为空',
    ]);
    expect(rowProblems([newRow({ variable: 'result', conditionalOpt: '>', conditionalVal: 'pass' })])).toEqual([
      '第1个条件,结果变量只能使用==或!=',
    ]);
  });

  it('refuses a result row whose value is not pass or unpass, as written (spec 5)', () => {
    const result = newRow({ formId: 'F1', variable: 'result', conditionalOpt: '==', conditionalVal: 'pass' });
    const unpass = { ...result, conditionalOpt: '!=' as const, conditionalVal: 'unpass' };
    expect(rowProblems([{ ...result, logic: '||' }, unpass])).toEqual([]);
    expect(rowProblems([{ ...result, conditionalVal: 'passed' }])).toEqual([
      '第1个条件,结果变量的值只能是pass或unpass',
    ]);
    // Quoted as written, ' pass' would never equal the task's result.
    expect(rowProblems([{ ...result, conditionalVal: ' pass' }])).toEqual(['第1个条件,结果变量的值只能是pass或unpass']);
    // Both parts wrong: both said, operator first as before; an empty value keeps its own message only.
    expect(rowProblems([{ ...result, conditionalOpt: '>=', conditionalVal: 'rollback' }])).toEqual([
      '第1个条件,结果变量只能使用==或!=',
      '第1个条件,结果变量的值只能是pass或unpass',
    ]);
    expect(rowProblems([{ ...result, conditionalVal: '' }])).toEqual(['第1个条件,变量值不能为空']);
    // Another variable may hold any value.
    expect(rowProblems([{ ...result, variable: 'site', conditionalVal: 'passed' }])).toEqual([]);
  });

  it('keeps expressions it cannot split into rows as text, and maps pass weight to a completion condition', () => {
    expect(parseExpression('${a.size() > 2}')).toBeUndefined();
    expect(parseExpression('not an expression')).toBeUndefined();
    expect(passWeightCondition(60)).toBe('${nrOfCompletedInstances/nrOfInstances >= 0.6}');
    expect(passWeightOf(passWeightCondition(75))).toBe(75);
  });
});
