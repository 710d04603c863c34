import type { MenuMeta } from '../../shared/menu/types';

/** Routes of spec 2.1 that every signed-in user has, outside the permission-filtered menu tree. */
export const CONSTANT_VIEWS: Record<string, MenuMeta> = {
  '/dashboard': { title: { 'zh-CN': '首页', 'en-US': 'Dashboard' }, affix: true },
  '/profile': { title: { 'zh-CN': '个人中心', 'en-US': 'Profile' }, noCache: true },
  '/activiti/manage': { title: { 'zh-CN': '流程管理', 'en-US': 'Workflow manager' } },
  '/frontInpuit/accept': { title: { 'zh-CN': '标本接收', 'en-US': 'Accept' }, noCache: true },
  '/frontInpuit/scanCode': { title: { 'zh-CN': '扫码接收', 'en-US': 'Scan code' }, noCache: true },
};
