import { beforeEach, describe, expect, it } from 'vitest';
import {
  addView,
  closeAll,
  closeOthers,
  closeView,
  refreshView,
  resetTags,
  tags,
} from '../../src/web/shell/tags/tagsStore';

const view = (path: string, affix = false) => ({ path, title: { 'zh-CN': path, 'en-US': path }, affix });
const paths = () => tags.visited.map((v) => v.path);

beforeEach(() => {
  resetTags();
  addView(view('/dashboard', true));
  addView(view('/a'));
  addView(view('/b'));
  addView(view('/c'));
});

describe('tags view store (spec 2.3, 4)', () => {
  it('adds each view once, affix views first', () => {
    addView(view('/b'));
    addView(view('/pinned', true));
    expect(paths()).toEqual(['/dashboard', '/pinned', '/a', '/b', '/c']);
  });

  it('closes a view and answers the last one left; affix views never close', () => {
    expect(closeView('/c')).toBe('/b');
    expect(closeView('/dashboard')).toBeUndefined();
    expect(paths()).toEqual(['/dashboard', '/a', '/b']);
  });

  it('close others keeps the affix views and the given one', () => {
    closeOthers('/b');
    expect(paths()).toEqual(['/dashboard', '/b']);
  });

  it('close all keeps only the affix views', () => {
    expect(closeAll()).toBe('/dashboard');
    expect(paths()).toEqual(['/dashboard']);
  });

  it('keeps the views in sessionStorage so a refresh restores them', async () => {
    await Promise.resolve();
    const saved = JSON.parse(sessionStorage.getItem('lims-tags') ?? '[]') as { path: string }[];
    expect(saved.map((v) => v.path)).toEqual(['/dashboard', '/a', '/b', '/c']);
  });

  it('refresh counts per view, so the kept-alive page is rebuilt', () => {
    refreshView('/a');
    refreshView('/a');
    expect(tags.refreshes['/a']).toBe(2);
  });
});
