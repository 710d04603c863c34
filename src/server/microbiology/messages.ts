import type { Locale } from '../../shared/i18n/messages.js';
import { refused, say } from '../kernel/resources/commands.js';

type Message = Record<Locale, string>;

/** The microbiology capability's refusals, in the lab's words; {x} are filled by `say`. */
export const MICRO_MESSAGES = {
  noSetting: {
    'zh-CN': '尚未选择在用的药敏判读标准：请先在“药敏判读标准”中将一个 CLSI 或 EUCAST 折点版本标为在用',
    'en-US':
      'No susceptibility guideline in use: mark a CLSI or EUCAST table version in use under Susceptibility guidelines first',
  },
  noTable: {
    'zh-CN': '没有 {guideline} 折点版本“{version}”的折点，请先录入该版本的折点表',
    'en-US': 'There are no {guideline} breakpoints of version "{version}": enter that table first',
  },
  noBreakpoint: {
    'zh-CN': '{version} 中没有适用于 {organism}、{antibiotic}（{method}）的折点，无法判读；请补充折点或更换判读标准',
    'en-US':
      '{version} has no breakpoint for {organism} with {antibiotic} ({method}): nothing is interpreted; add the breakpoint or choose another table',
  },
  noValues: {
    'zh-CN': '{version} 中 {organism}、{antibiotic} 的折点没有{method}的敏感和耐药值',
    'en-US': 'The {version} breakpoint for {organism} with {antibiotic} lacks the {method} S and R values',
  },
  noMeasure: { 'zh-CN': '请先录入 MIC 或抑菌圈直径', 'en-US': 'Enter the MIC or the zone diameter first' },
  panelGroup: {
    'zh-CN': '药敏组合“{panel}”用于{panelGroup}，与菌种 {organism} 不符',
    'en-US': 'Panel "{panel}" is for {panelGroup}, not for {organism}',
  },
  panelDisabled: { 'zh-CN': '药敏组合“{panel}”已停用', 'en-US': 'Panel "{panel}" is disabled' },
  isolateHasResults: {
    'zh-CN': '分离株 {isolate} 还有药敏结果，请先删除其药敏结果',
    'en-US': 'Isolate {isolate} still has susceptibility results: delete them first',
  },
  mic: { 'zh-CN': 'MIC', 'en-US': 'MIC' },
  disk: { 'zh-CN': '纸片扩散法', 'en-US': 'disk diffusion' },
} satisfies Record<string, Message>;

export { refused, say };
