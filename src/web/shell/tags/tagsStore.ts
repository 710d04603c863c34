import { proxy, subscribe } from 'valtio';

/**
 * Visited views of the tab bar (spec 2.3, 4): add, close, close others, close all (affix views stay).
 * Kept in sessionStorage, so a browser refresh brings the tabs back.
 */
export interface View {
  path: string;
  title: { 'zh-CN': string; 'en-US': string };
  affix?: boolean;
  noCache?: boolean;
}

const KEY = 'lims-tags';

function load(): View[] {
  try {
    const views = JSON.parse(sessionStorage.getItem(KEY) ?? '[]') as View[];
    return Array.isArray(views) ? views.filter((v) => typeof v.path === 'string') : [];
  } catch {
    return [];
  }
}

export const tags = proxy({
  visited: load(),
  /** Bumped per path by Refresh: the kept-alive view is dropped and built anew. */
  refreshes: {} as Record<string, number>,
});
subscribe(tags, () => sessionStorage.setItem(KEY, JSON.stringify(tags.visited)));

export function addView(view: View) {
  const existing = tags.visited.find((v) => v.path === view.path);
  if (existing) {
    existing.title = view.title;
    return;
  }
  // Affix views sit at the front, in the order they were added.
  if (view.affix) tags.visited.splice(tags.visited.filter((v) => v.affix).length, 0, view);
  else tags.visited.push(view);
}

/** Closes one view; answers the path to show when the closed one was active (the last view left). */
export function closeView(path: string): string | undefined {
  const index = tags.visited.findIndex((v) => v.path === path);
  if (index < 0 || tags.visited[index]!.affix) return undefined;
  tags.visited.splice(index, 1);
  return tags.visited.at(-1)?.path;
}

export function closeOthers(path: string) {
  tags.visited = tags.visited.filter((v) => v.affix || v.path === path);
}

export function closeAll(): string | undefined {
  tags.visited = tags.visited.filter((v) => v.affix);
  return tags.visited.at(-1)?.path;
}

export function refreshView(path: string) {
  tags.refreshes[path] = (tags.refreshes[path] ?? 0) + 1;
}

export function resetTags() {
  tags.visited = [];
  tags.refreshes = {};
  sessionStorage.removeItem(KEY);
}
