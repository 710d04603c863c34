import { proxy, useSnapshot } from 'valtio';
import { DEFAULT_LOCALE, messages as shared, type Locale, type MessageKey } from '../../shared/i18n/messages';

/** UI strings of the app itself; server messages come from the shared catalogue. */
const ui = {
  'login.title': { 'zh-CN': '用户登录', 'en-US': 'Sign in' },
  'login.username': { 'zh-CN': '用户名', 'en-US': 'User name' },
  'login.password': { 'zh-CN': '密码', 'en-US': 'Password' },
  'login.submit': { 'zh-CN': '登录', 'en-US': 'Sign in' },
  'login.failed': { 'zh-CN': '登录失败', 'en-US': 'Sign-in failed' },
  'dashboard.title': { 'zh-CN': '首页', 'en-US': 'Dashboard' },
  'dashboard.welcome': { 'zh-CN': '欢迎，{name}', 'en-US': 'Welcome, {name}' },
  'dashboard.org': { 'zh-CN': '所属机构', 'en-US': 'Organisation' },
  'dashboard.roles': { 'zh-CN': '角色', 'en-US': 'Roles' },
  'dashboard.counts': { 'zh-CN': '今日概况', 'en-US': 'Today at a glance' },
  'dashboard.failed': { 'zh-CN': '首页数据加载失败', 'en-US': 'Loading the dashboard failed' },
  'common.logout': { 'zh-CN': '退出登录', 'en-US': 'Log out' },
  'common.language': { 'zh-CN': 'English', 'en-US': '中文' },
  'common.cancel': { 'zh-CN': '取消', 'en-US': 'Cancel' },
  'common.confirm': { 'zh-CN': '确定', 'en-US': 'OK' },
  'shell.confirm.title': { 'zh-CN': '提示', 'en-US': 'Notice' },
  'shell.relogin': { 'zh-CN': '重新登录', 'en-US': 'Sign in again' },
  'shell.changePassword': { 'zh-CN': '修改密码', 'en-US': 'Change password' },
  'shell.profile': { 'zh-CN': '个人中心', 'en-US': 'Profile' },
  'shell.search': { 'zh-CN': '搜索菜单', 'en-US': 'Search pages' },
  'shell.fullscreen': { 'zh-CN': '全屏', 'en-US': 'Full screen' },
  'shell.fullscreenUnsupported': { 'zh-CN': 'you browser can not work', 'en-US': 'you browser can not work' },
  'shell.size': { 'zh-CN': '布局大小', 'en-US': 'Size' },
  'shell.toggleSidebar': { 'zh-CN': '展开/收起侧边栏', 'en-US': 'Toggle sidebar' },
  'shell.settings': { 'zh-CN': '系统布局配置', 'en-US': 'Page style settings' },
  'shell.loading': { 'zh-CN': '正在加载…', 'en-US': 'Loading…' },
  'size.default': { 'zh-CN': '默认', 'en-US': 'Default' },
  'size.medium': { 'zh-CN': '中等', 'en-US': 'Medium' },
  'size.small': { 'zh-CN': '小型', 'en-US': 'Small' },
  'size.mini': { 'zh-CN': '迷你', 'en-US': 'Mini' },
  'settings.theme': { 'zh-CN': '主题色', 'en-US': 'Theme colour' },
  'settings.tagsView': { 'zh-CN': '开启 Tags-View', 'en-US': 'Open Tags-View' },
  'settings.fixedHeader': { 'zh-CN': '固定 Header', 'en-US': 'Fixed header' },
  'settings.sidebarLogo': { 'zh-CN': '侧边栏 Logo', 'en-US': 'Sidebar logo' },
  'tags.refresh': { 'zh-CN': '刷新', 'en-US': 'Refresh' },
  'tags.close': { 'zh-CN': '关闭', 'en-US': 'Close' },
  'tags.closeOthers': { 'zh-CN': '关闭其它', 'en-US': 'Close Others' },
  'tags.closeAll': { 'zh-CN': '关闭所有', 'en-US': 'Close All' },
  'password.title': { 'zh-CN': '修改密码', 'en-US': 'Change password' },
  'password.old': { 'zh-CN': '原密码', 'en-US': 'Old password' },
  'password.new': { 'zh-CN': '新密码', 'en-US': 'New password' },
  'password.confirm': { 'zh-CN': '确认密码', 'en-US': 'Confirm password' },
  'password.mustChange': { 'zh-CN': '需要修改密码', 'en-US': 'You must change your password' },
  'error.404': { 'zh-CN': '抱歉，您访问的页面不存在。', 'en-US': 'Sorry, the page you visited does not exist.' },
  'error.401': { 'zh-CN': '抱歉，您没有访问该页面的权限。', 'en-US': 'Sorry, you are not allowed to open this page.' },
  'error.backHome': { 'zh-CN': '返回首页', 'en-US': 'Back to the dashboard' },
  'placeholder.notice': {
    'zh-CN': '该页面的功能正在建设中，菜单与权限已生效。',
    'en-US': 'This page is being built; its menu entry and permissions already apply.',
  },
  'push.runTitle': { 'zh-CN': '{title}（{count} 条）', 'en-US': '{title} ({count})' },
  'push.more': { 'zh-CN': '另有 {count} 条', 'en-US': '{count} more' },
  'push.unsupported': {
    'zh-CN': '当前浏览器不支持 WebSocket，无法接收报警推送',
    'en-US': 'This browser does not support WebSocket: alarm pushes cannot be received',
  },
  'screen.query': { 'zh-CN': '查询', 'en-US': 'Search' },
  'screen.reset': { 'zh-CN': '重置', 'en-US': 'Reset' },
  'screen.create': { 'zh-CN': '新增', 'en-US': 'Add' },
  'screen.edit': { 'zh-CN': '编辑', 'en-US': 'Edit' },
  'screen.view': { 'zh-CN': '查看', 'en-US': 'View' },
  'screen.delete': { 'zh-CN': '删除', 'en-US': 'Delete' },
  'screen.batchDelete': { 'zh-CN': '批量删除', 'en-US': 'Delete selected' },
  'screen.export': { 'zh-CN': '导出', 'en-US': 'Export' },
  'screen.import': { 'zh-CN': '导入', 'en-US': 'Import' },
  'screen.command': { 'zh-CN': '执行', 'en-US': 'Run' },
  'screen.actions': { 'zh-CN': '操作', 'en-US': 'Actions' },
  'screen.more': { 'zh-CN': '更多', 'en-US': 'More' },
  'screen.columns': { 'zh-CN': '列设置', 'en-US': 'Columns' },
  'screen.columnsKey': { 'zh-CN': '关键列，始终显示', 'en-US': 'A key column: always shown' },
  'screen.columnsReset': { 'zh-CN': '显示全部列', 'en-US': 'Show all columns' },
  'screen.total': { 'zh-CN': '共 {n} 条', 'en-US': '{n} in all' },
  'screen.totalMore': { 'zh-CN': '共 {n}+ 条', 'en-US': 'over {n}' },
  'screen.warning': { 'zh-CN': '警告', 'en-US': 'Warning' },
  'screen.deleteConfirm': {
    'zh-CN': '此操作将永久删除该数据, 是否继续?',
    'en-US': 'This deletes the data for good. Continue?',
  },
  'screen.deleted': { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
  'screen.history': { 'zh-CN': '履历', 'en-US': 'Timeline' },
  'screen.historyFailed': { 'zh-CN': '履历加载失败', 'en-US': 'The timeline could not be loaded' },
  'screen.scan': { 'zh-CN': '扫描条码后回车', 'en-US': 'Scan a barcode (Enter)' },
  'screen.scanNone': { 'zh-CN': '未找到条码 {code}', 'en-US': 'No record with barcode {code}' },
  'scanList.count': { 'zh-CN': '已扫到 {n}/{total} 管', 'en-US': '{n} of {total} scanned' },
  'scanList.scanned': { 'zh-CN': '已扫描 {n} 管', 'en-US': '{n} scanned' },
  'scanList.waiting': { 'zh-CN': '未扫到：{codes}', 'en-US': 'not scanned: {codes}' },
  'scanList.again': { 'zh-CN': '{code} 已扫描过', 'en-US': '{code} was scanned already' },
  'scanList.remove': { 'zh-CN': '移除 {code}', 'en-US': 'Remove {code}' },
  'scanList.stray': { 'zh-CN': '{code}（不在清单中）', 'en-US': '{code} (not on the list)' },
  'screen.scanAct': { 'zh-CN': '扫码即{action}', 'en-US': '{action} on each scan' },
  'screen.scanCount': {
    'zh-CN': '本次扫描 {n} 管：{action} {done}，未能{action} {refused}',
    'en-US': '{n} scanned: {done} done ({action}), {refused} refused',
  },
  'screen.scanTally': { 'zh-CN': '扫描记录', 'en-US': 'Scans' },
  'screen.scanClear': { 'zh-CN': '清空', 'en-US': 'Clear' },
  'screen.worksheetSave': { 'zh-CN': '保存结果（{n}）', 'en-US': 'Save results ({n})' },
  'screen.worksheetSaved': { 'zh-CN': '已保存 {n} 个结果', 'en-US': '{n} results saved' },
  'screen.worksheetDiscard': { 'zh-CN': '放弃修改', 'en-US': 'Discard changes' },
  'screen.worksheetHint': {
    'zh-CN': '在结果列输入，回车到下一行；可从表格粘贴一列结果',
    'en-US': 'Type in the result column, Enter for the next row; a column pasted from a spreadsheet fills the rows',
  },
  'screen.worksheetGrid': { 'zh-CN': '标本 × 项目', 'en-US': 'Specimens × items' },
  'screen.worksheetList': { 'zh-CN': '结果列表', 'en-US': 'Result list' },
  'screen.worksheetGridHint': {
    'zh-CN': 'Tab 到右边的项目，回车到下一个标本；可从表格粘贴一列结果',
    'en-US':
      'Tab for the next item, Enter for the next specimen; a column pasted from a spreadsheet fills the cells below',
  },
  'event.create': { 'zh-CN': '登记', 'en-US': 'Registered' },
  'event.workflow.started': { 'zh-CN': '启动流程', 'en-US': 'Process started' },
  'event.workflow.notStarted': { 'zh-CN': '未启动流程', 'en-US': 'Process not started' },
  'event.print': { 'zh-CN': '打印标签', 'en-US': 'Label printed' },
  'event.task': { 'zh-CN': '完成任务', 'en-US': 'Task completed' },
  'event.input': { 'zh-CN': '{label}：{value}', 'en-US': '{label}: {value}' },
  'screen.deleteFailed': { 'zh-CN': '删除失败', 'en-US': 'Delete failed' },
  'screen.deleteCancelled': { 'zh-CN': '已取消删除', 'en-US': 'Delete cancelled' },
  'screen.created': { 'zh-CN': '新增成功', 'en-US': 'Added' },
  'screen.updated': { 'zh-CN': '编辑成功', 'en-US': 'Saved' },
  'screen.saveFailed': { 'zh-CN': '保存失败', 'en-US': 'Save failed' },
  'screen.queryFailed': { 'zh-CN': '查询失败', 'en-US': 'Query failed' },
  'screen.exportFailed': { 'zh-CN': '导出失败', 'en-US': 'Export failed' },
  'screen.importFailed': { 'zh-CN': '导入失败', 'en-US': 'Import failed' },
  'screen.imported': { 'zh-CN': '成功导入 {n} 条', 'en-US': '{n} imported' },
  'screen.selectFirst': { 'zh-CN': '请先勾选数据进行操作', 'en-US': 'Select rows first' },
  'screen.batchNotFor': {
    'zh-CN': '{row}：当前状态不能执行「{action}」',
    'en-US': '{row}: its state does not allow {action}',
  },
  'screen.notFor': { 'zh-CN': '当前状态不能执行「{action}」', 'en-US': 'Its state does not allow {action}' },
  'screen.commandDone': { 'zh-CN': '{action}成功', 'en-US': '{action}: done' },
  'screen.commandFailed': { 'zh-CN': '{action}失败', 'en-US': '{action} failed' },
  'screen.commandSaved': { 'zh-CN': '{action}成功，已保存 {files}', 'en-US': '{action}: done, {files} saved' },
  'screen.download': { 'zh-CN': '下载', 'en-US': 'Download' },
  'screen.chooseFile': { 'zh-CN': '选择文件', 'en-US': 'Choose a file' },
  'screen.replaceFile': { 'zh-CN': '更换文件', 'en-US': 'Replace' },
  'screen.removeFile': { 'zh-CN': '移除', 'en-US': 'Remove' },
  'screen.fileTooLarge': { 'zh-CN': '文件不能超过 {kb} KB', 'en-US': 'The file may not exceed {kb} KB' },
  'publicData.distribute': { 'zh-CN': '下发公共数据', 'en-US': 'Distribute public data' },
  'publicData.sync': { 'zh-CN': '同步公共数据', 'en-US': 'Sync public data' },
  'publicData.syncConfirm': {
    'zh-CN': '将基础机构的全部公共数据复制到本实验室（已有的保留），是否继续？',
    'en-US': "Copy all of the base organisation's public records to this lab (records it keeps stay as they are)?",
  },
  'publicData.import': { 'zh-CN': '导入公共数据', 'en-US': 'Import public data' },
  'publicData.confirmUpdate': { 'zh-CN': '确认更新', 'en-US': 'Confirm updates' },
  'publicData.chooseLabs': { 'zh-CN': '选择实验室', 'en-US': 'Choose laboratories' },
  'publicData.done': { 'zh-CN': '操作成功，共 {n} 条', 'en-US': 'Done: {n} records' },
  'publicData.failed': { 'zh-CN': '操作失败', 'en-US': 'Failed' },
  'publicData.synced': { 'zh-CN': '已同步', 'en-US': 'Synced' },
  'publicData.updated': { 'zh-CN': '有更新', 'en-US': 'Update waiting' },
  'publicData.column': { 'zh-CN': '同步状态', 'en-US': 'Sync status' },
  'chart.region': { 'zh-CN': '{title}图表', 'en-US': 'Chart of {title}' },
  'chart.empty': { 'zh-CN': '暂无可绘制的数据', 'en-US': 'Nothing to chart for this query' },
  'chart.failed': { 'zh-CN': '图表数据加载失败', 'en-US': 'Loading the chart failed' },
  'chart.truncated': {
    'zh-CN': '图中为前 {n} 条数据（共 {total} 条），请缩小查询范围',
    'en-US': 'The chart shows the first {n} of {total} rows; narrow the query to see them all',
  },
  'chart.morePanels': {
    'zh-CN': '另有 {n} 个「{field}」未绘制，请按查询条件缩小范围',
    'en-US': '{n} more charts (by {field}) are not drawn; narrow the query to see them',
  },
  'chart.yes': { 'zh-CN': '是', 'en-US': 'Yes' },
  'chart.no': { 'zh-CN': '否', 'en-US': 'No' },
  'chart.listSeparator': { 'zh-CN': '、', 'en-US': ', ' },
  'chart.exportTable': { 'zh-CN': '导出表格 (xlsx)', 'en-US': 'Export table (xlsx)' },
  'chart.exportPicture': { 'zh-CN': '导出图片 (PNG)', 'en-US': 'Export picture (PNG)' },
  'chart.exportFailed': { 'zh-CN': '导出失败', 'en-US': 'Export failed' },
  'common.close': { 'zh-CN': '关闭', 'en-US': 'Close' },
  'profile.account': { 'zh-CN': '账号', 'en-US': 'Account' },
  'profile.name': { 'zh-CN': '姓名', 'en-US': 'Name' },
} satisfies Record<string, Record<Locale, string>>;

export type UiKey = keyof typeof ui | MessageKey;

const LOCALE_KEY = 'lims-locale';
export const i18n = proxy<{ locale: Locale }>({
  locale: (localStorage.getItem(LOCALE_KEY) as Locale | null) ?? DEFAULT_LOCALE,
});

export function setLocale(locale: Locale) {
  i18n.locale = locale;
  localStorage.setItem(LOCALE_KEY, locale);
}

export function translate(key: UiKey, locale: Locale, vars: Record<string, string | number> = {}): string {
  const entry = (ui as Record<string, Record<Locale, string>>)[key] ?? shared[key as MessageKey];
  const text = entry?.[locale] ?? entry?.[DEFAULT_LOCALE] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** The current locale's translator; components re-render when the locale changes. */
export function useT() {
  const { locale } = useSnapshot(i18n);
  return (key: UiKey, vars?: Record<string, string | number>) => translate(key, locale, vars);
}
