import type { Locale } from '../../shared/i18n/messages.js';
import { refuse } from '../kernel/resources/commands.js';

type Message = Record<Locale, string>;

/** The statistics' refusals, in the lab's words; {x} are filled by `say`. */
export const STAT_MESSAGES = {
  badDimension: {
    'zh-CN': '统计维度“{value}”无效，可选：{choices}',
    'en-US': 'Unknown breakdown "{value}"; choose one of: {choices}',
  },
  badDate: {
    'zh-CN': '日期“{value}”无效，请使用 YYYY-MM-DD 格式',
    'en-US': 'Invalid date "{value}"; use YYYY-MM-DD',
  },
  badId: { 'zh-CN': '{label}“{value}”无效', 'en-US': 'Invalid {label} "{value}"' },
  badTarget: {
    'zh-CN': '周转时间目标必须是 1 到 100000 之间的整数分钟（{key}）',
    'en-US': 'A turnaround target must be a whole number of minutes from 1 to 100000 ({key})',
  },
} satisfies Record<string, Message>;

/** Refuses with one of the messages above, its {placeholders} filled. */
export function say(locale: Locale, message: Message, vars: Record<string, string | number> = {}, field = ''): never {
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
  refuse(locale, { 'zh-CN': fill(message['zh-CN']), 'en-US': fill(message['en-US']) }, field);
}
