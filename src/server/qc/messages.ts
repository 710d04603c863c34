import type { Locale } from '../../shared/i18n/messages.js';

type Message = Record<Locale, string>;

export const QC_MESSAGES = {
  noPlan: { 'zh-CN': '质控计划不存在', 'en-US': 'The QC plan of this result does not exist' },
  rejectedTitle: { 'zh-CN': '质控失控', 'en-US': 'QC out of control' },
  rejected: {
    'zh-CN': '{plan} {runNo}（{runAt}）测定值 {value} 违背 {rules}，{item} 的患者结果暂停审核，请处理并记录质控结论',
    'en-US':
      '{plan} run {runNo} ({runAt}): value {value} broke {rules}; patient results of {item} are held until a QC conclusion releases them',
  },
} satisfies Record<string, Message>;

export function say(message: Message, locale: Locale, vars: Record<string, string | number> = {}): string {
  return message[locale].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ''));
}
