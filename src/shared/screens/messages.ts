import type { Locale } from '../i18n/messages.js';

/** Validation messages of screen fields, the same on client and server; {label} is the field's label. */
export const screenMessages = {
  'field.required': { 'zh-CN': '{label}不能为空', 'en-US': '{label} is required' },
  'field.maxLength': { 'zh-CN': '{label}最多{n}个字符', 'en-US': '{label} must be at most {n} characters' },
  'field.minLength': { 'zh-CN': '{label}至少{n}个字符', 'en-US': '{label} must be at least {n} characters' },
  'field.minimum': { 'zh-CN': '{label}不能小于{n}', 'en-US': '{label} must not be less than {n}' },
  'field.maximum': { 'zh-CN': '{label}不能大于{n}', 'en-US': '{label} must not be greater than {n}' },
  'field.integer': { 'zh-CN': '{label}必须是整数', 'en-US': '{label} must be a whole number' },
  'field.number': { 'zh-CN': '{label}必须是数字', 'en-US': '{label} must be a number' },
  'field.precision': { 'zh-CN': '{label}最多保留{n}位小数', 'en-US': '{label} allows at most {n} decimal places' },
  'field.pattern': { 'zh-CN': '{label}格式不正确', 'en-US': '{label} has the wrong format' },
  'field.phone': { 'zh-CN': '请输入正确的手机号码', 'en-US': 'Please enter a valid mobile phone number' },
  'field.email': { 'zh-CN': '请输入正确的邮箱地址', 'en-US': 'Please enter a valid e-mail address' },
  'field.date': { 'zh-CN': '{label}日期格式不正确', 'en-US': '{label} must be a date (YYYY-MM-DD)' },
  'field.datetime': { 'zh-CN': '{label}时间格式不正确', 'en-US': '{label} must be a date and time' },
  'field.option': { 'zh-CN': '{label}的值不在可选范围内', 'en-US': '{label} is not one of the allowed values' },
  'field.type': { 'zh-CN': '{label}格式不正确', 'en-US': '{label} has the wrong type' },
  'field.unique': { 'zh-CN': '{label}“{value}”已存在', 'en-US': '{label} "{value}" already exists' },
  'field.copy': { 'zh-CN': '{label}“{value}”不存在', 'en-US': '{label} "{value}" does not exist' },
  'field.reference': { 'zh-CN': '{label}引用的数据不存在', 'en-US': '{label} refers to a record that does not exist' },
  'field.unknown': { 'zh-CN': '未知字段{label}', 'en-US': 'Unknown field {label}' },
  'field.rule': { 'zh-CN': '{label}', 'en-US': '{label}' },
  'lifecycle.byTransition': {
    'zh-CN': '{label}只能通过流转操作改变，不能直接修改',
    'en-US': '{label} changes only through its transitions, never by an edit',
  },
  'lifecycle.wrongState': {
    'zh-CN': '当前状态为「{state}」，不能执行「{action}」',
    'en-US': 'The record is {state}: "{action}" cannot be done now',
  },
  'lifecycle.notEditable': {
    'zh-CN': '当前状态为「{state}」，不能修改',
    'en-US': 'The record is {state}: it can no longer be edited',
  },
  'lifecycle.notBy': {
    'zh-CN': '「{action}」须由{who}以外的人执行',
    'en-US': '"{action}" must be done by someone other than the {who}',
  },
  'lifecycle.noTransition': { 'zh-CN': '没有名为「{action}」的流转', 'en-US': 'There is no transition "{action}"' },
  'lifecycle.systemOnly': {
    'zh-CN': '「{action}」由系统在相应环节自动完成，不能手工执行',
    'en-US': '"{action}" is done by the system at its step, not by hand',
  },
  'signature.password': { 'zh-CN': '签名密码', 'en-US': 'Password to sign' },
  'signature.passwordHelp': {
    'zh-CN': '再次输入您本人的密码：这是一次电子签名，记录您的姓名、时间与签名含义。',
    'en-US': 'Your own password again: this is an electronic signature with your name, the time and what you sign.',
  },
} satisfies Record<string, Record<Locale, string>>;

export type ScreenMessageKey = keyof typeof screenMessages;

export function screenMessage(key: ScreenMessageKey, locale: Locale, vars: Record<string, string | number>): string {
  return screenMessages[key][locale].replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? ''));
}
