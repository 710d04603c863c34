import type { Locale } from '../i18n/messages.js';

/**
 * The dashboard's answer (issue 24, GET /api/dashboard): sections of counts the capabilities add
 * (today's specimens by state, open tasks, unacknowledged critical values, today's QC), each count a
 * link to the list it counts, filtered. Counts are read from the database at each call, never typed.
 */
export type Words = Record<Locale, string>;

/** The list a count opens: a screen (its menu route) with the filter values that select the counted rows. */
export interface DashboardLink {
  screen: string;
  /** The screen's menu route id, by which the browser finds its page among the user's routes. */
  menuId?: number;
  query: Record<string, string>;
}

export interface DashboardTile {
  key: string;
  label: Words;
  count: number;
  /** How the count reads at a glance: a warning or a danger asks for someone's attention. */
  tone: 'normal' | 'warning' | 'danger' | 'good';
  link?: DashboardLink;
}

export interface DashboardSection {
  key: string;
  title: Words;
  /** Lower shows first. */
  order: number;
  /** The professional groups counted (the user's); absent, the whole lab. Names are the lab's data. */
  groups?: string[];
  tiles: DashboardTile[];
}

export interface Dashboard {
  /** The lab's day the counts are of (YYYY-MM-DD, in the lab's time zone). */
  day: string;
  sections: DashboardSection[];
}

/** The push news that tells an open dashboard its counts changed (no data: the page asks again). */
export const DASHBOARD_TOPIC = 'dashboard';
