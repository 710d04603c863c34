import type { Locale } from '../../shared/i18n/messages.js';
import { refuse } from '../kernel/resources/commands.js';

type Message = Record<Locale, string>;

/** Finance's refusals, in the lab's words; {x} are filled by `say`. */
export const FINANCE_MESSAGES = {
  noSpecimen: {
    'zh-CN': '没有条码号为 {barcode} 的标本',
    'en-US': 'There is no specimen with the barcode {barcode}',
  },
  nothingCovered: {
    'zh-CN': '标本 {barcode} 没有名为“{names}”的收费项目',
    'en-US': 'Specimen {barcode} is charged for nothing named “{names}”',
  },
  noLines: {
    'zh-CN': '该医院在 {from} 至 {to} 没有未结算的收费明细',
    'en-US': 'The hospital has no unsettled charge lines from {from} to {to}',
  },
  statementClosed: {
    'zh-CN': '只有草稿状态的对账单可以删除',
    'en-US': 'Only a draft statement can be deleted',
  },
  overStatement: {
    'zh-CN': '核销金额 {amount} 元超过对账单尚欠的 {owed} 元',
    'en-US': 'The write-off of {amount} yuan exceeds the {owed} yuan the statement still owes',
  },
  overSpecimen: {
    'zh-CN': '核销金额 {amount} 元超过标本 {barcode} 在该对账单上尚欠的 {owed} 元',
    'en-US': 'The write-off of {amount} yuan exceeds the {owed} yuan specimen {barcode} still owes on the statement',
  },
  notOnStatement: {
    'zh-CN': '标本 {barcode} 不在该对账单上',
    'en-US': 'Specimen {barcode} is not on the statement',
  },
  approvedWaiver: {
    'zh-CN': '已批准的免费记录不能删除',
    'en-US': 'An approved waiver cannot be deleted',
  },
  unknownCode: {
    'zh-CN': '没有编码为 {code} 的检验项目或检验目的',
    'en-US': 'No inspection item or purpose has the code {code}',
  },
} satisfies Record<string, Message>;

/** A refusal with its placeholders filled; nothing is written. */
export function say(locale: Locale, message: Message, values: Record<string, string> = {}, field = ''): never {
  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
  refuse(locale, { 'zh-CN': fill(message['zh-CN']), 'en-US': fill(message['en-US']) }, field);
}
