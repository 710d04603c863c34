import { describe, expect, it } from 'vitest';
import {
  buildExpression,
  newRow,
  parseExpression,
  passWeightCondition,
  passWeightOf,
  rowProblems,
} from '../../src/web/workflow/conditions';

describe('condition builder expressions (spec 2.4, 5)', () => {
  it('quotes text values, leaves numbers bare and joins rows by their logic', () => {
    const rows = [
      newRow({ formId: 'F1', variable: 'result', conditionalOpt: '==', conditionalVal: 'pass', logic: '&&' }),
      newRow({
        formId: 'A99999',
        variable: 'tumorSize',
        conditionalOpt: '>=',
        conditionalVal: '3.5',
        logic: '||',
      }),
      newRow({ formId: 'F2', variable: 'site', conditionalOpt: '!=', conditionalVal: "it's" }),
    ];
    const built = buildExpression(rows);
    expect(built.expression).toBe("${result == 'pass' && tumorSize >= 3.5 || site != 'it\\'s'}");
    expect(built.formId).toBe('F1,A99999,F2');
    const back = parseExpression(built.expression, built.formId)!;
    expect(back.map(({ id: _id, ...r }) => r)).toEqual(rows.map(({ id: _id, ...r }) => r));
  });

  it('names every missing part and missing logic in the spec messages', () => {
    const problems = rowProblems([
      newRow({ variable: 'a', conditionalOpt: '==' }),
      newRow({ conditionalVal: '1' }),
    ]);
    expect(problems).toEqual([
      '第1个条件,变量值不能为空',
      '配置多个条件时，须配置逻辑,第1个条件逻辑未配置',
      '第2个条件,变量不能为空',
      '第2个条件,操作符不能为空',
    ]);
    expect(
      rowProblems([newRow({ variable: 'result', conditionalOpt: '>', conditionalVal: 'pass' })]),
    ).toEqual(['第1个条件,结果变量只能使用==或!=']);
  });

  it('keeps expressions it cannot split into rows as text, and maps pass weight to a completion condition', () => {
    expect(parseExpression('${a.size() > 2}')).toBeUndefined();
    expect(parseExpression('not an expression')).toBeUndefined();
    expect(passWeightCondition(60)).toBe('${nrOfCompletedInstances/nrOfInstances >= 0.6}');
    expect(passWeightOf(passWeightCondition(75))).toBe(75);
  });
});
