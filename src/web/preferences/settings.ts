import { proxy, subscribe } from 'valtio';

/** Settings drawer (spec 2.3, 3): theme colour, tags view, fixed header, sidebar logo; kept in localStorage. */
export const THEME_PRESETS = [
  '#409EFF',
  '#1890ff',
  '#304156',
  '#212121',
  '#11a983',
  '#13c2c2',
  '#6959CD',
  '#f5222d',
] as const;

export interface Settings {
  theme: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  showSettings: boolean;
}

const KEY = 'lims-settings';
const defaults: Settings = {
  theme: '#409EFF',
  tagsView: true,
  fixedHeader: false,
  sidebarLogo: true,
  showSettings: true,
};

function load(): Settings {
  try {
    return { ...defaults, ...(JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Settings>) };
  } catch {
    return { ...defaults };
  }
}

export const settings = proxy<Settings>(load());
subscribe(settings, () => localStorage.setItem(KEY, JSON.stringify(settings)));
