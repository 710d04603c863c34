import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption, ScatterSeriesOption } from 'echarts/charts';
import {
  chartPanels,
  MAX_PANELS,
  valueText,
  LOT_CHANGE_COLOR,
  VIOLATION_COLOR,
  type ChartOption,
  type ChartRow,
} from '../../src/web/charts/chartOptions';
import { checkScreenFile } from '../../src/server/kernel/screens/check';
import type { ScreenSchema } from '../../src/shared/screens/fields';

const schemaDir = path.resolve(import.meta.dirname, '../../schemas');
const screen = (id: string) =>
  JSON.parse(readFileSync(path.join(schemaDir, 'screens', `${id}.json`), 'utf8')) as ScreenSchema;

type AnySeries = BarSeriesOption | LineSeriesOption | PieSeriesOption | ScatterSeriesOption;
const seriesOf = (option: ChartOption) => option.series as AnySeries[];
const named = (option: ChartOption, name: string) => seriesOf(option).find((s) => s.name === name)!;
const categories = (option: ChartOption) => (option.xAxis as { data: string[] }).data;
/** The words a screen reader gets for the chart. */
const spoken = (option: ChartOption) => (option.aria as { label: { description: string } }).label.description;

/** A demo QC point as /api/qc/chart answers it (GLU level 1: mean 5.2, SD 0.12). */
function qcPoint(group: string, runAt: string, value: number, violations = '', mean = 5.2, sd = 0.12): ChartRow {
  const at = (k: number) => Math.round((mean + k * sd) * 10_000) / 10_000;
  return {
    group,
    runAt,
    value,
    violations,
    mean,
    lower1s: at(-1),
    upper1s: at(1),
    lower2s: at(-2),
    upper2s: at(2),
    lower3s: at(-3),
    upper3s: at(3),
  };
}

describe('Levey-Jennings chart of the QC chart screen', () => {
  const qc = screen('qc-chart');
  // Table order (newest first) must not matter: the chart draws runs in time order.
  const rows = [
    qcPoint('AU5800-1 GLU 水平1', '2026-01-20 08:04:00', 5.49, '1-2s, 2-2s'),
    qcPoint('AU5800-1 K 水平1', '2026-01-20 08:10:00', 3.33, '1-3s', 3.1, 0.06),
    qcPoint('AU5800-1 GLU 水平1', '2026-01-18 08:05:00', 5.18),
    qcPoint('AU5800-1 GLU 水平1', '2026-01-19 08:02:00', 5.47, '1-2s'),
  ];
  const panels = (locale: 'zh-CN' | 'en-US' = 'zh-CN', of = rows) =>
    chartPanels(qc, of, locale).panels.map((p) => p.option);
  /** The run names under the axis: runs sit at x = 1..n. */
  const runLabels = (option: ChartOption) => {
    const axis = option.xAxis as { min: number; max: number; axisLabel: { formatter: (x: number) => string } };
    return Array.from({ length: axis.max - axis.min }, (_, i) => axis.axisLabel.formatter(i + 1));
  };
  const ys = (series: AnySeries) => [...new Set((series.data as [number, number | null][]).map(([, y]) => y))];
  const span = (series: AnySeries) => {
    const xs = (series.data as [number, number][]).map(([x]) => x);
    return [Math.min(...xs), Math.max(...xs)];
  };

  it('draws one panel per QC plan, each with its own runs in time order', () => {
    const { panels: drawn, hiddenPanels } = chartPanels(qc, rows, 'zh-CN');
    expect(drawn.map((p) => p.title)).toEqual(['AU5800-1 GLU 水平1', 'AU5800-1 K 水平1']);
    expect(hiddenPanels).toBe(0);
    const [glu, k] = panels();
    expect(runLabels(glu!)).toEqual(['2026-01-18 08:05', '2026-01-19 08:02', '2026-01-20 08:04']);
    expect(named(glu!, '测定值')).toMatchObject({
      type: 'line',
      data: [
        [1, 5.18],
        [2, 5.47],
        [3, 5.49],
      ],
    });
    expect(runLabels(k!)).toEqual(['2026-01-20 08:10']);
    expect(named(k!, '测定值').data).toEqual([[1, 3.33]]);
  });

  it('draws the mean and the ±1, ±2 and ±3 SD lines across every run, named and styled by level', () => {
    const [glu, k] = panels();
    expect(named(glu!, '靶值')).toMatchObject({ type: 'line', lineStyle: { type: 'solid' }, symbol: 'none' });
    expect(ys(named(glu!, '靶值'))).toEqual([5.2]);
    expect(span(named(glu!, '靶值'))).toEqual([0.5, 3.5]);
    expect(ys(named(glu!, '+1SD'))).toEqual([5.32]);
    expect(named(glu!, '-1SD')).toMatchObject({ lineStyle: { type: 'dotted' } });
    expect(named(glu!, '-2SD')).toMatchObject({ lineStyle: { type: 'dashed', color: '#fa8c16' } });
    expect(ys(named(glu!, '-2SD'))).toEqual([4.96]);
    expect(named(glu!, '+3SD')).toMatchObject({ lineStyle: { type: 'dashed', color: '#f5222d' } });
    expect(ys(named(glu!, '+3SD'))).toEqual([5.56]);
    // A single run still gets its lines, across its whole slot.
    expect(span(named(k!, '+2SD'))).toEqual([0.5, 1.5]);
    expect(ys(named(k!, '+2SD'))).toEqual([3.22]);
    // Only the measured values and the violations are legend entries; the lines carry their names at their ends.
    expect((glu!.legend as { data: string[] }).data).toEqual(['测定值', '违背规则']);
    expect(named(glu!, '+2SD')).toMatchObject({ endLabel: { show: true, formatter: '{a}' } });
  });

  it('steps the lines where a new lot brings a new mean', () => {
    const [plan] = panels('zh-CN', [
      qcPoint('P', '2026-02-01 08:00:00', 5.2),
      qcPoint('P', '2026-02-02 08:00:00', 5.6, '', 5.5, 0.1),
    ]);
    expect(named(plan!, '靶值').data).toEqual([
      [0.5, 5.2],
      [1.5, 5.2],
      [1.5, 5.5],
      [2.5, 5.5],
    ]);
  });

  it('draws a line where the lot changes, named by the new lot, and shades the runs a lot’s target was established from', () => {
    const lotted = (day: string, value: number, lotNo: string, establishing: boolean, mean = 5.2) => ({
      ...qcPoint('P', `2026-02-0${day} 08:00:00`, value, '', mean, 0.1),
      lotNo,
      establishing,
    });
    const [plan] = panels('zh-CN', [
      lotted('1', 5.2, 'A1', true),
      lotted('2', 5.25, 'A1', true),
      lotted('3', 5.3, 'A1', false),
      lotted('4', 5.6, 'B2', false, 5.5),
      lotted('5', 5.5, 'B2', true, 5.5),
    ]);
    const lot = named(plan!, '批号') as LineSeriesOption;
    // Between run 3 (x = 3) and run 4 (x = 4), the first run of lot B2.
    expect(lot.markLine?.data).toEqual([{ xAxis: 3.5, name: 'B2' }]);
    expect(lot.markLine?.lineStyle).toMatchObject({ color: LOT_CHANGE_COLOR });
    const period = named(plan!, '定值期') as LineSeriesOption;
    expect(period.markArea?.data).toEqual([
      [{ xAxis: 0.5, name: '定值期' }, { xAxis: 2.5 }],
      [{ xAxis: 4.5, name: '定值期' }, { xAxis: 5.5 }],
    ]);
    expect((plan!.legend as { data: string[] }).data).toEqual(['测定值', '违背规则', '批号', '定值期']);
    expect(spoken(plan!)).toContain('批号：2026-02-01 08:00 A1，2026-02-04 08:00 B2');
    expect(spoken(plan!)).toContain('定值期：2026-02-01 08:00 – 2026-02-02 08:00，2026-02-05 08:00 – 2026-02-05 08:00');
  });

  it('draws no lot line for a single lot and no shade without an establishing run', () => {
    const [plan] = panels('zh-CN', [
      { ...qcPoint('P', '2026-02-01 08:00:00', 5.2), lotNo: 'A1', establishing: false },
      { ...qcPoint('P', '2026-02-02 08:00:00', 5.3), lotNo: 'A1', establishing: false },
    ]);
    expect(seriesOf(plan!).map((x) => x.name)).not.toContain('批号');
    expect(seriesOf(plan!).map((x) => x.name)).not.toContain('定值期');
  });

  it('marks the runs that broke a rule red, with the rules written beside them and in the tooltip', () => {
    const [glu, k] = panels();
    const marks = named(glu!, '违背规则') as ScatterSeriesOption;
    expect(marks).toMatchObject({ type: 'scatter', color: VIOLATION_COLOR });
    expect(marks.data).toEqual([
      { value: [2, 5.47], label: expect.objectContaining({ show: true, formatter: '1-2s' }) },
      { value: [3, 5.49], label: expect.objectContaining({ show: true, formatter: '1-2s, 2-2s' }) },
    ]);
    expect((named(k!, '违背规则') as ScatterSeriesOption).data).toEqual([
      { value: [1, 3.33], label: expect.objectContaining({ formatter: '1-3s' }) },
    ]);
    const tooltip = (glu!.tooltip as { formatter: (p: unknown) => string }).formatter;
    expect(tooltip({ value: [3, 5.49] })).toBe('2026-01-20 08:04<br/>测定值: 5.49<br/>违背规则: 1-2s, 2-2s');
    expect(tooltip({ value: [1, 5.18] })).toBe('2026-01-18 08:05<br/>测定值: 5.18');
    expect(spoken(glu!)).toBe(
      '测定值：2026-01-18 08:05 5.18，2026-01-19 08:02 5.47，2026-01-20 08:04 5.49；违背规则：2026-01-19 08:02 1-2s，2026-01-20 08:04 1-2s, 2-2s',
    );
  });

  it('writes rule names as text, never as markup or a label template', () => {
    const [plan] = panels('zh-CN', [qcPoint('P', '2026-02-01 08:00:00', 5.6, '<b>{a}</b>')]);
    expect(
      ((named(plan!, '违背规则') as ScatterSeriesOption).data as { label: { formatter: string } }[])[0]!.label
        .formatter,
    ).toBe('<b>a</b>');
    expect((plan!.tooltip as { formatter: (p: unknown) => string }).formatter({ value: [1, 5.6] })).toContain(
      '&#60;b&#62;{a}&#60;/b&#62;',
    );
  });

  it('names series and lines in English when the user reads English', () => {
    const [glu] = panels('en-US');
    expect(seriesOf(glu!).map((s) => s.name)).toEqual([
      '+3 SD',
      '+2 SD',
      '+1 SD',
      'Mean',
      '-1 SD',
      '-2 SD',
      '-3 SD',
      'Value',
      'Rules broken',
    ]);
  });

  it('leaves a gap for a run without a value, and draws no mark for it', () => {
    const [plan] = panels('zh-CN', [
      qcPoint('P', '2026-01-01 08:00:00', 5.2),
      { ...qcPoint('P', '2026-01-02 08:00:00', 0, '1-3s'), value: null },
    ]);
    expect(named(plan!, '测定值').data).toEqual([
      [1, 5.2],
      [2, null],
    ]);
    expect((named(plan!, '违背规则') as ScatterSeriesOption).data).toEqual([]);
  });

  it('draws at most MAX_PANELS plans and says how many it left out', () => {
    const many = Array.from({ length: MAX_PANELS + 2 }, (_, i) => qcPoint(`计划${i + 1}`, '2026-01-01 08:00:00', 5.2));
    const { panels: drawn, hiddenPanels } = chartPanels(qc, many, 'zh-CN');
    expect(drawn).toHaveLength(MAX_PANELS);
    expect(hiddenPanels).toBe(2);
  });
});

describe('bar and pie charts of the statistics screens', () => {
  it('draws the turnaround medians and 90th percentiles as bars per group, in the table order', () => {
    const option = chartPanels(
      screen('stat-in-lab-tat'),
      [
        { group: '生化组', count: 1, medianMinutes: 120, p90Minutes: 120 },
        { group: '临检组', count: 2, medianMinutes: 60, p90Minutes: 180 },
      ],
      'zh-CN',
    ).panels[0]!.option;
    expect(categories(option)).toEqual(['生化组', '临检组']);
    expect(seriesOf(option)).toMatchObject([
      { type: 'bar', name: '中位数(分钟)', data: [120, 60], stack: undefined },
      { type: 'bar', name: '90百分位(分钟)', data: [120, 180] },
    ]);
    expect((option.legend as { data: string[] }).data).toEqual(['中位数(分钟)', '90百分位(分钟)']);
    expect(spoken(option)).toBe('中位数(分钟)：生化组 120，临检组 60；90百分位(分钟)：生化组 120，临检组 180');
  });

  it('stacks the counts of each account when the chart says stack', () => {
    const count = (key: string, zh: string, en: string) => ({
      key,
      type: 'integer' as const,
      label: { 'zh-CN': zh, 'en-US': en },
    });
    const stacked: ScreenSchema = {
      schemaVersion: 2,
      id: 'stacked',
      title: { 'zh-CN': '操作量', 'en-US': 'Writes' },
      resource: { name: 'stacked' },
      fields: [
        { key: 'group', type: 'text', label: { 'zh-CN': '账号', 'en-US': 'Account' } },
        count('creates', '新增', 'Created'),
        count('updates', '修改', 'Changed'),
        count('deletes', '删除', 'Deleted'),
      ],
      chart: { kind: 'bar', x: 'group', values: ['creates', 'updates', 'deletes'], stack: true },
    };
    const rows = [
      { group: 'admin', creates: 5, updates: 3, deletes: 1 },
      { group: 'editor', creates: 2, updates: 0, deletes: 0 },
    ];
    const option = chartPanels(stacked, rows, 'zh-CN').panels[0]!.option;
    expect(seriesOf(option)).toMatchObject([
      { name: '新增', data: [5, 2], stack: 'total' },
      { name: '修改', data: [3, 0], stack: 'total' },
      { name: '删除', data: [1, 0], stack: 'total' },
    ]);
    // Counts: no half steps on the axis.
    expect(option.yAxis).toMatchObject({ minInterval: 1 });
    expect(spoken(chartPanels(stacked, rows, 'en-US').panels[0]!.option)).toBe(
      'Created: admin 5, editor 2; Changed: admin 3, editor 0; Deleted: admin 1, editor 0',
    );
  });

  it('splits the sample modifications of each data kind into one stacked series per account', () => {
    const option = chartPanels(
      screen('stat-sample-modification'),
      [
        { group: '标本类型', account: 'admin', count: 4, records: 2 },
        { group: '质控结果', account: 'editor', count: 3, records: 3 },
        { group: '标本类型', account: 'editor', count: 1, records: 1 },
      ],
      'zh-CN',
    ).panels[0]!.option;
    expect(categories(option)).toEqual(['标本类型', '质控结果']);
    expect(seriesOf(option)).toMatchObject([
      { name: 'admin', data: [4, null], stack: 'total' },
      { name: 'editor', data: [1, 3], stack: 'total' },
    ]);
  });

  it('draws the specimen types as shares of a pie, one slice per type', () => {
    const option = chartPanels(
      screen('stat-specimen-type-volume'),
      [
        { group: '血清', count: 30, share: 60 },
        { group: '全血', count: 15, share: 30 },
        { group: '—', count: 5, share: 10 },
      ],
      'zh-CN',
    ).panels[0]!.option;
    const [slices] = seriesOf(option) as PieSeriesOption[];
    expect(slices).toMatchObject({ type: 'pie', name: '标本量' });
    expect(slices!.data).toEqual([
      { name: '血清', value: 30 },
      { name: '全血', value: 15 },
      { name: '—', value: 5 },
    ]);
    expect((option.legend as { data: string[] }).data).toEqual(['血清', '全血', '—']);
  });

  it('draws nothing when the query answers no rows', () => {
    expect(chartPanels(screen('stat-workload'), [], 'zh-CN')).toEqual({ panels: [], hiddenPanels: 0 });
  });

  it('gives every statistics screen and the QC chart a chart their files check out with', () => {
    const ids = [
      'qc-chart',
      'handover-statistics',
      ...[
        'hospital-submission-volume',
        'in-lab-tat',
        'inspection-purpose-volume',
        'pre-inspection-tat',
        'professional-group-volume',
        'sample-modification',
        'specimen-type-volume',
        'workload',
      ].map((s) => `stat-${s}`),
    ];
    for (const id of ids) {
      const checked = checkScreenFile(path.join(schemaDir, 'screens', `${id}.json`), schemaDir);
      expect(checked, id).toHaveProperty('screen');
      const s = screen(id);
      expect(s.chart, id).toBeDefined();
      expect(s.description, id).not.toMatch(/future work/);
    }
  });
});

describe('axis and legend words of a value', () => {
  const qc = screen('qc-chart');
  const field = (s: ScreenSchema, key: string) => s.fields.find((f) => f.key === key);
  it('reads a reference by its title, an option by its label, a time without seconds, nothing as a dash', () => {
    expect(valueText(field(qc, 'plan'), { plan: 3, labels: { plan: 'AU5800-1 K 水平1' } }, 'zh-CN')).toBe(
      'AU5800-1 K 水平1',
    );
    expect(valueText(field(qc, 'runAt'), { runAt: '2026-01-20T08:10:00' }, 'zh-CN')).toBe('2026-01-20 08:10');
    expect(valueText(field(qc, 'group'), { group: '' }, 'zh-CN')).toBe('—');
    const status = {
      key: 'status',
      type: 'enum' as const,
      label: { 'zh-CN': '状态', 'en-US': 'Status' },
      options: [{ value: 'reject', label: { 'zh-CN': '失控', 'en-US': 'Rejected' } }],
    };
    expect(valueText(status, { status: 'reject' }, 'en-US')).toBe('Rejected');
  });

  it("takes yes/no and the list separator from the message catalogue in the reader's language", () => {
    const flag = { key: 'held', type: 'boolean' as const, label: { 'zh-CN': '暂停', 'en-US': 'Held' } };
    expect(valueText(flag, { held: true }, 'en-US')).toBe('Yes');
    expect(valueText(flag, { held: false }, 'zh-CN')).toBe('否');
    const items = field(qc, 'plan');
    expect(valueText(items, { plan: 1, labels: { plan: ['GLU', 'K'] } }, 'en-US')).toBe('GLU, K');
    expect(valueText(items, { plan: 1, labels: { plan: ['GLU', 'K'] } }, 'zh-CN')).toBe('GLU、K');
  });
});

describe('checking the chart of a screen file', () => {
  const count = (key: string) => ({ key, type: 'integer', label: { 'zh-CN': key, 'en-US': key } });
  const base = {
    schemaVersion: 2,
    id: 'x',
    title: { 'zh-CN': '统计', 'en-US': 'Statistic' },
    resource: { name: 'x' },
    fields: [
      { key: 'group', type: 'text', label: { 'zh-CN': '组', 'en-US': 'Group' } },
      count('count'),
      count('creates'),
      count('deletes'),
    ],
  };
  const problemOf = (chart: unknown) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'chart-check-'));
    const file = path.join(dir, 'x.json');
    writeFileSync(file, JSON.stringify({ ...base, chart }));
    const checked = checkScreenFile(file, schemaDir);
    return 'problem' in checked ? { path: checked.problem.path, message: checked.problem.message } : undefined;
  };

  it('refuses a chart that names a missing field, draws text, or pies two values, and says where', () => {
    expect(problemOf({ kind: 'bar', x: 'nobody', values: ['count'] })).toEqual({
      path: '/chart/x',
      message: 'no field "nobody"',
    });
    expect(problemOf({ kind: 'bar', x: 'group', values: ['count', 'group'] })).toEqual({
      path: '/chart/values/1',
      message: '"group" is not a number field',
    });
    expect(problemOf({ kind: 'pie', x: 'group', values: ['creates', 'deletes'] })).toEqual({
      path: '/chart/values',
      message: 'a pie draws one value field',
    });
    expect(
      problemOf({ kind: 'leveyJennings', x: 'group', values: ['count'], referenceLines: [{ field: 'mean' }] }),
    ).toEqual({ path: '/chart/referenceLines/0/field', message: 'no field "mean"' });
    expect(problemOf({ kind: 'radar', x: 'group', values: ['count'] })).toMatchObject({ path: '/chart/kind' });
    expect(problemOf({ kind: 'bar', x: 'group', values: ['count'], violationField: 'group' })).toEqual({
      path: '/chart',
      message: 'reference lines and violations belong to a leveyJennings chart',
    });
    expect(problemOf({ kind: 'pie', x: 'group', values: ['count'], seriesField: 'group' })).toEqual({
      path: '/chart/seriesField',
      message: 'only a bar or line chart splits into series',
    });
    expect(problemOf({ kind: 'bar', x: 'group', values: ['count'], stack: true })).toBeUndefined();
  });
});
