import { describe, expect, it } from 'vitest';
import { CONSTANT_PAGES, MENU_PAGES, PAGES, constantView } from './registry';

describe('hand-written pages', () => {
  it('lists each path once', () => {
    const paths = PAGES.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('gives the constant routes their tab titles and flags, the dashboard pinned first', () => {
    expect(CONSTANT_PAGES[0]?.path).toBe('/dashboard');
    expect(constantView('/dashboard')).toMatchObject({ title: { 'zh-CN': '首页' }, affix: true });
    expect(constantView('/profile')?.noCache).toBe(true);
    expect(constantView('/laboratoryManager/form/workflowDesign')).toBeUndefined();
  });

  it('answers menu paths with their page, both workflow-design routes with the one model list', () => {
    const lab = MENU_PAGES.get('/laboratoryManager/form/workflowDesign');
    expect(lab?.component).toBeDefined();
    expect(MENU_PAGES.get('/groupManager/publicWorkflow/workflowDesign')?.component).toBe(lab?.component);
    expect(MENU_PAGES.has('/dashboard')).toBe(false);
  });
});
