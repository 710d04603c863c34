import type { Locale } from '../../shared/i18n/messages.js';
import { refused } from '../kernel/resources/commands.js';

/** Pathology's refusals, {name} filled from the case. */
export const PATHOLOGY_MESSAGES = {
  noSpecimen: {
    'zh-CN': '条码号 {barcode} 没有对应的标本，请先录入并接收标本',
    'en-US': 'No specimen has barcode {barcode}: enter and receive the specimen first',
  },
  notReceived: {
    'zh-CN': '标本 {barcode} 当前为“{state}”，接收后才能取材',
    'en-US': 'Specimen {barcode} is {state}: it can be grossed once received',
  },
  caseExists: {
    'zh-CN': '标本 {barcode} 已有病理号 {pathologyNo}',
    'en-US': 'Specimen {barcode} already has pathology case {pathologyNo}',
  },
  grossingClosed: {
    'zh-CN': '病理号 {pathologyNo} 已开始制片或诊断，取材记录不能再修改',
    'en-US': 'Case {pathologyNo} is past grossing: its grossing record can no longer be changed',
  },
  caseSignedOut: {
    'zh-CN': '病理号 {pathologyNo} 已签发，请在原诊断上“修正诊断”',
    'en-US': 'Case {pathologyNo} is signed out: amend its diagnosis instead',
  },
  diagnosisLocked: {
    'zh-CN': '诊断已签名，退回或修正后才能修改',
    'en-US': 'The diagnosis is signed: it can be changed once returned or amended',
  },
  ownDiagnosis: {
    'zh-CN': '复核医生不能与诊断医生为同一人',
    'en-US': 'The reviewer must be a different pathologist from the one who signed the diagnosis',
  },
  noSlides: {
    'zh-CN': '病理号 {pathologyNo} 还有切片未染色评级，不能签发',
    'en-US': 'Case {pathologyNo} has slides not yet stained and graded: it cannot be signed out',
  },
} satisfies Record<string, Record<Locale, string>>;

export { refused };
