import type { Locale } from '../../shared/i18n/messages.js';
import { refused, say } from '../kernel/resources/commands.js';

type Message = Record<Locale, string>;

/** The results capability's refusals, in the lab's words; {x} are filled by `say`. */
export const RESULT_MESSAGES = {
  notNumeric: { 'zh-CN': '{item}的结果必须是数字', 'en-US': 'The result of {item} must be a number' },
  notCoded: { 'zh-CN': '{item}的结果应为：{codes}', 'en-US': 'The result of {item} is one of: {codes}' },
  noAuthority: {
    'zh-CN': '{user}没有{group}的{ability}权限（检验权限）',
    'en-US': '{user} has no {ability} authority for {group} (inspection authority)',
  },
  ownResult: {
    'zh-CN': '{barcode} {item}：不能审核自己检验的结果',
    'en-US': '{barcode} {item}: you cannot approve a result you tested',
  },
  ownReview: {
    'zh-CN': '{barcode} {item}：审核者不能与初审者为同一人',
    'en-US': '{barcode} {item}: the auditor cannot be the first reviewer',
  },
  unacknowledged: {
    'zh-CN': '{barcode} {item}：危急值尚未确认，不能审核',
    'en-US': '{barcode} {item}: the critical value is not acknowledged yet',
  },
  qcHold: {
    'zh-CN': '{barcode} {item}：该项目最近一次质控失控（{rule}），结果暂停审核，待质控结论放行',
    'en-US':
      '{barcode} {item}: the latest QC run of the item was rejected ({rule}); results are held until a QC conclusion releases them',
  },
  nothingChosen: { 'zh-CN': '请选择要审核的结果', 'en-US': 'Choose the results to approve' },
  criticalTitle: { 'zh-CN': '危急值', 'en-US': 'Critical value' },
  criticalAlert: {
    'zh-CN': '{barcode} {patient} {item} {result} {unit}（{flag}），请立即处理并确认',
    'en-US': '{barcode} {patient} {item} {result} {unit} ({flag}): act and acknowledge now',
  },
  autoVerified: { 'zh-CN': '自动审核：{rule}', 'en-US': 'Auto-verified: {rule}' },
  held: { 'zh-CN': '拦截：{rules}', 'en-US': 'Held: {rules}' },
  test: { 'zh-CN': '检验', 'en-US': 'testing' },
  review: { 'zh-CN': '初审', 'en-US': 'first review' },
  audit: { 'zh-CN': '审核', 'en-US': 'audit' },
} satisfies Record<string, Message>;

export { refused, say };
