import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FieldDef, ScreenSchema } from '../../src/shared/screens/fields';

/**
 * A field's description is the form's help text and what a configurator reads when editing a screen file:
 * a sentence saying what the field holds in the lab, never a fragment such as "When." or "Who printed.".
 */
const screensDir = path.resolve(import.meta.dirname, '../../schemas/screens');
const files = readdirSync(screensDir)
  .filter((f) => f.endsWith('.json'))
  .sort();

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** At least 4 words (split on whitespace); text in Chinese (or other CJK) at least 8 characters instead. */
function isSentence(description: unknown): boolean {
  if (typeof description !== 'string') return false;
  const text = description.trim();
  if (CJK.test(text)) return [...text.replace(/\s+/g, '')].length >= 8;
  return text.split(/\s+/).filter(Boolean).length >= 4;
}

/**
 * What is wrong with a field's description (schemaVersion 3): each language needs its sentence, the Chinese
 * one in Chinese (the issue found English help under every Chinese form) and the English one without Han.
 */
function descriptionProblem(description: FieldDef['description']): string | undefined {
  if (!description) return 'no description';
  const zh = description['zh-CN'];
  const en = description['en-US'];
  if (!isSentence(zh) || !CJK.test(zh)) return 'no Chinese sentence';
  // An English text may quote the lab's Chinese words as examples (e.g. 生化组); its own words are English.
  if ((en.match(/[A-Za-z]+/g) ?? []).length < 4) return 'no English sentence';
  return undefined;
}

/** Every field of a screen with where it sits: top-level fields, rows of list fields, inputs of commands. */
function* fieldsOf(screen: ScreenSchema): Generator<[string, FieldDef]> {
  function* walk(fields: readonly FieldDef[] | undefined, prefix: string): Generator<[string, FieldDef]> {
    for (const field of fields ?? []) {
      const where = `${prefix}${field.key}`;
      yield [where, field];
      yield* walk(field.itemFields, `${where}.`);
    }
  }
  yield* walk(screen.fields, '');
  for (const [place, actions] of Object.entries(screen.actions ?? {})) {
    for (const action of actions ?? []) yield* walk(action.fields, `actions.${place}[${action.name ?? action.kind}].`);
  }
}

describe('the description rule', () => {
  it.each<[unknown, boolean]>([
    [undefined, false],
    ['', false],
    ['When.', false],
    ['Who printed.', false],
    ['Kind of specimen.', false],
    ['When the labels were printed.', true],
    ['  Spaced   out   words   here  ', true],
    ['标本类型', false],
    ['采样时的标本类型说明', true],
  ])('%j is a sentence: %s', (description, expected) => {
    expect(isSentence(description)).toBe(expected);
  });
});

describe('the description rule in both languages', () => {
  const en = 'When the labels were printed.';
  it.each<[FieldDef['description'], string | undefined]>([
    [undefined, 'no description'],
    [{ 'zh-CN': en, 'en-US': en }, 'no Chinese sentence'],
    [{ 'zh-CN': '打印标签的时间。', 'en-US': '打印标签的时间。' }, 'no English sentence'],
    [{ 'zh-CN': '打印标签的时间。', 'en-US': en }, undefined],
    [
      { 'zh-CN': '折扣名称（如 2026 年度体检折扣）。', 'en-US': 'Name staff know it by (e.g. 年度体检折扣).' },
      undefined,
    ],
  ])('%j: %s', (description, problem) => {
    expect(descriptionProblem(description)).toBe(problem);
  });
});

describe('field descriptions of the screen files', () => {
  it('finds the screen files', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('gives every field, nested ones included, a description in both languages: 4 English words, 8 Chinese characters', () => {
    const offenders: string[] = [];
    let checked = 0;
    for (const file of files) {
      const screen = JSON.parse(readFileSync(path.join(screensDir, file), 'utf8')) as ScreenSchema;
      for (const [where, field] of fieldsOf(screen)) {
        checked++;
        const problem = descriptionProblem(field.description);
        if (problem) offenders.push(`${file} ${where}: ${problem} ${JSON.stringify(field.description ?? null)}`);
      }
    }
    expect(checked).toBeGreaterThan(files.length);
    expect(offenders, `fields whose description is missing or not a sentence:\n${offenders.join('\n')}`).toEqual([]);
  });
});
