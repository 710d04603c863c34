import type { DashboardPart } from '../../kernel/dashboard/dashboard.js';
import { one } from '../../kernel/db/database.js';
import { groupsOf, OPEN_FOR_USER } from './store.js';

/** The dashboard's count of the user's open tasks: what the to-do list below it lists (the same rule). */
export const workflowDashboard: DashboardPart = {
  // A new specimen starts its process (a first task) once its entry is committed.
  watches: ['specimen'],
  async section({ db, actor }) {
    const row = await one<{ n: number }>(
      db,
      `select count(*)::int as n from workflow_task t join process_instance i on i.id = t.instance_id where ${OPEN_FOR_USER}`,
      [
        actor.orgId,
        actor.userAccount,
        [actor.userAccount, String(actor.id)],
        await groupsOf(db, actor.id),
        actor.roles.includes('admin'),
      ],
    );
    const count = Number(row?.n ?? 0);
    return {
      key: 'tasks',
      title: { 'zh-CN': '我的任务', 'en-US': 'My tasks' },
      order: 20,
      tiles: [
        {
          key: 'tasks.open',
          label: { 'zh-CN': '待办任务', 'en-US': 'Tasks to do' },
          count,
          tone: count > 0 ? 'warning' : 'good',
        },
      ],
    };
  },
};
