import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../src/web/i18n';
import { designerTranslate } from '../../src/web/workflow/designer/translate';

/** The designer's bpmn-js words follow the user's language (issue 24): Chinese by default, English as shipped. */
describe('designer translate', () => {
  afterEach(() => {
    i18n.locale = 'zh-CN';
  });

  it('shows the properties panel labels the issue found in English in Chinese', () => {
    i18n.locale = 'zh-CN';
    expect(['General', 'Name', 'ID', 'Executable', 'Documentation'].map((k) => designerTranslate(k))).toEqual([
      '常规',
      '名称',
      '编号',
      '可执行',
      '文档',
    ]);
    expect(designerTranslate('Create user task')).toBe('创建用户任务');
  });

  it('keeps bpmn-js English for an English user and fills placeholders in both', () => {
    i18n.locale = 'en-US';
    expect(designerTranslate('General')).toBe('General');
    expect(designerTranslate('Open {element}', { element: 'Sub' })).toBe('Open Sub');
    i18n.locale = 'zh-CN';
    expect(designerTranslate('Open {element}', { element: '子流程' })).toBe('打开 子流程');
  });
});
