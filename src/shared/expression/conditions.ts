/**
 * The condition builder's rows and the `${...}` jump expression they become (spec 2.4, 3, 5). Pure
 * functions, no React and no browser: the designer's dialog edits rows, these turn rows into text and
 * text back into rows, and the server evaluates the text with the evaluator beside this file.
 */
export type Operator = '==' | '!=' | '<' | '>' | '>=' | '<=';
export type Logic = '' | '&&' | '||';

export interface ConditionRow {
  id: string;
  /** Form page the control belongs to; A99999 lets the user type a field name. */
  formId: string;
  variable: string;
  conditionalOpt: Operator | '';
  conditionalVal: string;
  logic: Logic;
  /**
   * The chosen control holds a number (spec 5: "the value is quoted unless the variable is numeric").
   * It comes from the control's declared type, never from what the value looks like: a text control
   * compared with 5 is compared with the text '5'.
   */
  numeric: boolean;
}

export const FREE_FORM_ID = 'A99999';
export const OPERATORS: Operator[] = ['==', '!=', '<', '>', '>=', '<='];
/** The result variable of a task (spec 3 flow constants) compares only by equality, with pass / unpass. */
export const RESULT_VARIABLE = 'result';
export const RESULT_OPERATORS: Operator[] = ['==', '!='];
export const RESULT_VALUES = ['pass', 'unpass'];

export const isResultVariable = (variable: string) => variable === RESULT_VARIABLE;
const NUMBER = /^-?\d+(\.\d+)?$/;

let counter = 0;
export const newRow = (partial: Partial<ConditionRow> = {}): ConditionRow => ({
  id: `c${Date.now().toString(36)}${(counter++).toString(36)}`,
  formId: '',
  variable: '',
  conditionalOpt: '',
  conditionalVal: '',
  logic: '',
  numeric: false,
  ...partial,
});

/**
 * Spec 5: a result variable compares only by == / != with pass or unpass. The value is checked as
 * written, untrimmed, because it is quoted as written: ' pass' would never equal a task's result.
 */
function resultRowProblems(row: ConditionRow, n: number): string[] {
  const problems: string[] = [];
  if (row.conditionalOpt && !RESULT_OPERATORS.includes(row.conditionalOpt))
    problems.push(`第${n}个条件,结果变量只能使用==或!=`);
  // An empty value already has its own message.
  if (row.conditionalVal.trim() && !RESULT_VALUES.includes(row.conditionalVal))
    problems.push(`第${n}个条件,结果变量的值只能是pass或unpass`);
  return problems;
}

/** Spec 5: the console messages of an invalid set; empty when every row is complete. */
export function rowProblems(rows: readonly ConditionRow[]): string[] {
  const problems: string[] = [];
  rows.forEach((row, i) => {
    const n = i + 1;
    if (!row.variable.trim()) problems.push(`第${n}个条件,变量不能为空`);
    if (!row.conditionalOpt) problems.push(`第${n}个条件,操作符不能为空`);
    if (!row.conditionalVal.trim()) problems.push(`第${n}个条件,变量值不能为空`);
    // Trimmed as buildExpression writes it: ' result' is the result variable in the expression too.
    if (isResultVariable(row.variable.trim())) problems.push(...resultRowProblems(row, n));
    // Written bare, anything but a number would be read as another variable's name.
    if (row.numeric && row.conditionalVal.trim() && !NUMBER.test(row.conditionalVal.trim()))
      problems.push(`第${n}个条件,数值变量的值须为数字`);
    if (rows.length > 1 && i < rows.length - 1 && !row.logic)
      problems.push(`配置多个条件时，须配置逻辑,第${n}个条件逻辑未配置`);
  });
  return problems;
}

const quoted = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const literal = (row: ConditionRow) => (row.numeric ? row.conditionalVal.trim() : quoted(row.conditionalVal));

/** Rows → `${a == 'x' && b >= 3}`, and the flow's formId list (one id per row). */
export function buildExpression(rows: readonly ConditionRow[]): { expression: string; formId: string } {
  const parts = rows.map((row, i) => {
    const text = `${row.variable.trim()} ${row.conditionalOpt} ${literal(row)}`;
    return i < rows.length - 1 ? `${text} ${row.logic}` : text;
  });
  return {
    expression: rows.length ? `\${${parts.join(' ')}}` : '',
    formId: rows.map((r) => r.formId).join(','),
  };
}

const COMPARISON =
  /^\(?\s*([A-Za-z_][\w.]*)\s*(==|!=|<=|>=|<|>)\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|[A-Za-z_]\w*)\s*\)?$/;

/**
 * `${...}` → rows, or undefined when the text is no plain chain of comparisons (then it is kept as
 * text). A bare number marks its variable numeric, as the builder wrote it; the dialog corrects that
 * from the control's declared type once it knows it.
 */
export function parseExpression(expression: string, formIds = ''): ConditionRow[] | undefined {
  const body = /^\s*\$\{([\s\S]*)\}\s*$/.exec(expression)?.[1];
  if (body === undefined) return undefined;
  const ids = formIds.split(',');
  const tokens = body.split(/(&&|\|\|)/);
  const rows: ConditionRow[] = [];
  for (let i = 0; i < tokens.length; i += 2) {
    const match = COMPARISON.exec(tokens[i]!.trim());
    if (!match) return undefined;
    const raw = match[3]!;
    const isQuoted = /^['"]/.test(raw);
    rows.push(
      newRow({
        formId: ids[rows.length] ?? '',
        variable: match[1]!,
        conditionalOpt: match[2] as Operator,
        conditionalVal: isQuoted ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw,
        logic: (tokens[i + 1] as Logic | undefined) ?? '',
        numeric: NUMBER.test(raw),
      }),
    );
  }
  return rows;
}

/** Spec 3: the pass weight (1-100 %) of a multi-instance task as its completion condition. */
export function passWeightCondition(weight: number): string {
  const w = Math.min(100, Math.max(1, Math.round(weight)));
  return `\${nrOfCompletedInstances/nrOfInstances >= ${w / 100}}`;
}

export function passWeightOf(condition: string | undefined): number | undefined {
  const m = /nrOfCompletedInstances\s*\/\s*nrOfInstances\s*>=\s*([\d.]+)/.exec(condition ?? '');
  return m ? Math.round(Number(m[1]) * 100) : undefined;
}
