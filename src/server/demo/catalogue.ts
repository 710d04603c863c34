import type { Random } from './random.js';

/**
 * What the generated lab does, in the lab's words: the panels (inspection purposes of the demo data)
 * a specimen is sent for, the items each measures and how patients' values of them spread, and the QC
 * each item runs. Values spread as a population's do: most within range, some high or low, a few critical.
 */
export type Sex = 'male' | 'female';

export interface ItemSpread {
  code: string;
  /** The demo catalogue's name of the item, as a result's labels show it. */
  name: string;
  decimals: number;
  /** A patient's value: the usual spread, with the abnormal tails the lab sees. */
  draw(r: Random, sex: Sex): number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export const ITEMS: Record<string, ItemSpread> = {
  WBC: {
    code: 'WBC',
    name: '白细胞计数',
    decimals: 2,
    // Infections push a tenth of requests high; a few are low (leukopenia).
    draw: (r) =>
      r.weighted([
        [() => r.normal(6.6, 1.4), 86],
        [() => r.uniform(9.6, 18), 10],
        [() => r.uniform(2.2, 3.4), 4],
      ] as const)(),
  },
  HGB: {
    code: 'HGB',
    name: '血红蛋白',
    decimals: 0,
    // Anaemia in some, and now and then a critically low one (below 50 g/L) the ward must hear of.
    draw: (r, sex) =>
      r.weighted([
        [() => r.normal(sex === 'male' ? 148 : 129, 10), 90],
        [() => r.uniform(75, sex === 'male' ? 128 : 113), 9],
        [() => r.uniform(38, 49), 1],
      ] as const)(),
  },
  ALT: { code: 'ALT', name: '丙氨酸氨基转移酶', decimals: 0, draw: (r) => clamp(r.logNormal(21, 0.5), 5, 900) },
  CREA: {
    code: 'CREA',
    name: '肌酐',
    decimals: 0,
    draw: (r, sex) => (r.chance(0.05) ? r.uniform(130, 420) : clamp(r.normal(sex === 'male' ? 82 : 63, 12), 30, 125)),
  },
  TSH: { code: 'TSH', name: '促甲状腺激素', decimals: 3, draw: (r) => clamp(r.logNormal(1.9, 0.55), 0.01, 60) },
};

export type PanelName = '血常规' | '肝功能' | '肾功能' | '甲状腺功能';

/** A panel as the demo catalogue has it: its items (by code) and the tube it is drawn into. */
export const PANELS: Record<PanelName, { items: string[]; specimenType: '全血' | '血清' }> = {
  血常规: { items: ['WBC', 'HGB'], specimenType: '全血' },
  肝功能: { items: ['ALT'], specimenType: '血清' },
  肾功能: { items: ['CREA'], specimenType: '血清' },
  甲状腺功能: { items: ['TSH'], specimenType: '血清' },
};

/** The panels of one specimen: a blood count alone (whole blood), or one to three serum panels. */
export function panelsOf(r: Random): PanelName[] {
  if (r.chance(0.45)) return ['血常规'];
  const serum: PanelName[] = [];
  if (r.chance(0.6)) serum.push('肝功能');
  if (r.chance(0.5)) serum.push('肾功能');
  if (r.chance(0.25) || serum.length === 0) serum.push('甲状腺功能');
  return serum;
}

/**
 * The QC of the items, two levels or one per item: the plans the generator makes if the lab has none
 * (the demo data has the glucose ones), each run twice a day.
 */
export interface QcSpec {
  plan: string;
  material: string;
  itemCode: string;
  level: 'L1' | 'L2' | 'L3';
  mean: number;
  sd: number;
  instrument: string;
  group: string;
}

export const QC: QcSpec[] = [
  {
    plan: 'BC-6800 WBC 水平2',
    material: '迈瑞血球质控 WBC 水平2',
    itemCode: 'WBC',
    level: 'L2',
    mean: 7.2,
    sd: 0.22,
    instrument: 'BC-6800',
    group: '临检组',
  },
  {
    plan: 'BC-6800 HGB 水平2',
    material: '迈瑞血球质控 HGB 水平2',
    itemCode: 'HGB',
    level: 'L2',
    mean: 132,
    sd: 2.4,
    instrument: 'BC-6800',
    group: '临检组',
  },
  {
    plan: 'AU5800-1 ALT 水平1',
    material: '伯乐生化质控 ALT 水平1',
    itemCode: 'ALT',
    level: 'L1',
    mean: 38,
    sd: 1.6,
    instrument: 'AU5800-1',
    group: '生化组',
  },
  {
    plan: 'AU5800-1 CREA 水平1',
    material: '伯乐生化质控 CREA 水平1',
    itemCode: 'CREA',
    level: 'L1',
    mean: 96,
    sd: 3.1,
    instrument: 'AU5800-1',
    group: '生化组',
  },
  {
    plan: 'Cobas e601 TSH 水平2',
    material: '朗道免疫质控 TSH 水平2',
    itemCode: 'TSH',
    level: 'L2',
    mean: 5.85,
    sd: 0.28,
    instrument: 'Cobas e601',
    group: '免疫组',
  },
];

/** The item code of a result row, found by the item's name its labels carry. */
export function itemCodeOf(result: Record<string, unknown>): string | undefined {
  const name = (result.labels as { item?: string } | undefined)?.item;
  return Object.values(ITEMS).find((i) => i.name === name)?.code;
}

/** Rounds a value to the item's decimals, as the instrument reports it. */
export const reported = (value: number, decimals: number): string => value.toFixed(decimals);

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN =
  '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂英华玉萍红娥玲芬燕鹏辉建国文斌宇浩凯秀兰晶婷欣怡子涵梓轩雨桐佳琪思远';

/** A patient's name: a surname and one or two given characters. */
export function patientName(r: Random): string {
  const one = () => GIVEN[r.int(0, GIVEN.length - 1)]!;
  return SURNAMES[r.int(0, SURNAMES.length - 1)]! + one() + (r.chance(0.7) ? one() : '');
}
