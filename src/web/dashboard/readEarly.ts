import { readEarly } from '../api/earlyReads';
import { DONE_TASKS_URL, TODO_TASKS_URL } from '../workflow/runtime/api';
import { DASHBOARD_URL } from './useDashboard';

/** What the dashboard shows first (counts and tasks), asked for at sign-in beside the page-entry calls. */
export function readDashboardEarly(): void {
  for (const url of [DASHBOARD_URL, TODO_TASKS_URL, DONE_TASKS_URL]) readEarly(url);
}
