import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption, ScatterSeriesOption } from 'echarts/charts';
import type {
  AriaComponentOption,
  GridComponentOption,
  LegendComponentOption,
  MarkAreaComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import {
  optionLabel,
  type ChartDef,
  type ChartReferenceLine,
  type FieldDef,
  type ScreenSchema,
} from '../../shared/screens/fields';
import type { Locale } from '../../shared/i18n/messages';
import { translate } from '../i18n';
import { isEmpty, type RecordValues } from '../../shared/screens/predicate';

/**
 * The screen schema's `chart` turned into ECharts options: pure (no DOM, no ECharts code, only its
 * types), so the mapping is tested on its own and the chart library loads only where a chart is drawn.
 */
export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | PieSeriesOption
  | ScatterSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
  | AriaComponentOption
  | MarkAreaComponentOption
  | MarkLineComponentOption
>;

/** A row of the list answer: field values, and the titles of its references. */
export type ChartRow = RecordValues & { labels?: Record<string, string | string[]> };

export interface ChartPanel {
  key: string;
  /** The panel field's value (e.g. the QC plan), when the chart is split into panels. */
  title?: string;
  option: ChartOption;
}

/** More panels than this are not drawn (the user narrows the query instead): a page of charts stays readable. */
export const MAX_PANELS = 12;

const NONE = '—';

/**
 * Lab conventions for control-chart lines: the mean solid, ±2 SD a warning in orange, ±3 SD a rejection
 * in red. Two pixels wide: wherever the plot's text puts them, some pixels are the full colour (a
 * 1.5 px line centred on a pixel edge was drawn at three quarters of it, the red ±3 SD lines pink).
 */
const LINE_STYLE: Record<
  NonNullable<ChartReferenceLine['level']> | 'other',
  { color: string; type: 'solid' | 'dashed' | 'dotted'; width: number }
> = {
  mean: { color: '#389e0d', type: 'solid', width: 2 },
  '1s': { color: '#8c8c8c', type: 'dotted', width: 1 },
  '2s': { color: '#fa8c16', type: 'dashed', width: 2 },
  '3s': { color: '#f5222d', type: 'dashed', width: 2 },
  other: { color: '#8c8c8c', type: 'dashed', width: 1 },
};
export const VIOLATION_COLOR = '#f5222d';
/** The line where a new control lot starts, and the shade over the runs a lot's own target came from. */
export const LOT_CHANGE_COLOR = '#722ed1';
export const ESTABLISHING_COLOR = 'rgba(22, 119, 255, 0.08)';

/** Axis labels inside the box (the margins hold them); room on the right for the names of reference lines. */
const grid = (right: number): GridComponentOption => ({
  left: 8,
  right,
  top: 36,
  bottom: 8,
  outerBoundsMode: 'same',
  outerBoundsContain: 'axisLabel',
});

/** How a value reads on an axis, in a legend or as a panel title: reference titles, option labels, short times. */
export function valueText(field: FieldDef | undefined, row: ChartRow, locale: Locale): string {
  if (!field) return NONE;
  const label = row.labels?.[field.key];
  if (label !== undefined) return Array.isArray(label) ? label.join(translate('chart.listSeparator', locale)) : label;
  const value = row[field.key];
  if (isEmpty(value)) return NONE;
  switch (field.type) {
    case 'enum':
      return optionLabel(field, value, locale) ?? String(value);
    case 'boolean':
      return translate(value ? 'chart.yes' : 'chart.no', locale);
    case 'datetime':
      // Seconds crowd an axis and tell a lab nothing about a run.
      return String(value).replace('T', ' ').slice(0, 16);
    default:
      return String(value);
  }
}

/** A number to draw, or null (a gap) for an empty or unreadable value. */
function numberOf(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Ascending by the raw value (times as text sort in time order); a stable sort keeps equal values in table order. */
function ascending(rows: ChartRow[], key: string): ChartRow[] {
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === y) return 0;
    if (isEmpty(x)) return 1;
    if (isEmpty(y)) return -1;
    return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
  });
}

interface Context {
  chart: ChartDef;
  locale: Locale;
  field: (key: string) => FieldDef | undefined;
  label: (key: string) => string;
  text: (key: string, row: ChartRow) => string;
}

/** Rows summed per category (bar, line, pie): categories in first-seen order, one series per value field or per series-field value. */
function aggregate(ctx: Context, rows: ChartRow[]) {
  const { chart } = ctx;
  const categories: string[] = [];
  const seriesNames = chart.seriesField
    ? [...new Set(rows.map((r) => ctx.text(chart.seriesField!, r)))]
    : chart.values.map(ctx.label);
  const sums = new Map<string, Map<string, number | null>>(seriesNames.map((s) => [s, new Map()]));
  const add = (series: string, category: string, value: number | null) => {
    const sum = sums.get(series)!;
    const before = sum.get(category) ?? null;
    sum.set(category, value === null ? before : (before ?? 0) + value);
  };
  for (const row of rows) {
    const category = ctx.text(chart.x, row);
    if (!categories.includes(category)) categories.push(category);
    if (chart.seriesField) add(ctx.text(chart.seriesField, row), category, numberOf(row[chart.values[0]!]));
    else chart.values.forEach((key, i) => add(seriesNames[i]!, category, numberOf(row[key])));
  }
  return {
    categories,
    series: seriesNames.map((name) => ({ name, data: categories.map((c) => sums.get(name)!.get(c) ?? null) })),
  };
}

/**
 * Levey-Jennings runs sit at x = 1..n on a value axis, so that each reference line can span its run's
 * whole slot (x ± 0.5): flat across the chart for one lot, a step where a new lot brings a new mean,
 * and visible even for a single run.
 */
function referenceSeries(ctx: Context, points: ChartRow[]): LineSeriesOption[] {
  return (ctx.chart.referenceLines ?? []).map((line) => {
    const style = LINE_STYLE[line.level ?? 'other'];
    return {
      type: 'line',
      name: ctx.label(line.field),
      data: points.flatMap((r, i) => {
        const y = numberOf(r[line.field]);
        return [
          [i + 0.5, y],
          [i + 1.5, y],
        ];
      }),
      symbol: 'none',
      silent: true,
      z: 1,
      color: style.color,
      lineStyle: style,
      endLabel: { show: true, formatter: '{a}', color: style.color, fontSize: 11 },
      emphasis: { disabled: true },
      tooltip: { show: false },
    };
  });
}

/** The runs that broke a rule, drawn red over the value line with the rules beside them. */
function violationSeries(ctx: Context, points: ChartRow[]): ScatterSeriesOption | undefined {
  const key = ctx.chart.violationField;
  if (!key) return undefined;
  const valueKey = ctx.chart.values[0]!;
  return {
    type: 'scatter',
    name: ctx.label(key),
    symbol: 'diamond',
    symbolSize: 13,
    z: 5,
    color: VIOLATION_COLOR,
    data: points.flatMap((r, i) => {
      const y = numberOf(r[valueKey]);
      if (isEmpty(r[key]) || y === null) return [];
      // The rule names are data, not a template: braces would be read as placeholders.
      const rules = String(r[key]).replace(/[{}]/g, '');
      return [
        {
          value: [i + 1, y],
          label: {
            show: true,
            position: 'top' as const,
            formatter: rules,
            color: VIOLATION_COLOR,
            fontWeight: 'bold' as const,
          },
        },
      ];
    }),
  };
}

/** Indexes (into the points) where the lot changes from the run before: the first run of each new lot. */
function lotChanges(ctx: Context, points: ChartRow[]): number[] {
  const key = ctx.chart.lotField;
  if (!key) return [];
  return points.flatMap((r, i) => (i > 0 && !isEmpty(r[key]) && r[key] !== points[i - 1]![key] ? [i] : []));
}

/** Spans [first, last] of consecutive points whose period field is true (a lot's establishing runs). */
function periods(ctx: Context, points: ChartRow[]): [number, number][] {
  const key = ctx.chart.periodField;
  if (!key) return [];
  const spans: [number, number][] = [];
  points.forEach((r, i) => {
    if (r[key] !== true) return;
    const last = spans[spans.length - 1];
    if (last && last[1] === i - 1) last[1] = i;
    else spans.push([i, i]);
  });
  return spans;
}

/**
 * The lot changes, a vertical line between the last run of one lot and the first of the next with the
 * new lot's number; the establishing periods, a shade over their runs' slots. Drawn on a series of their
 * own, so the legend names (and toggles) them.
 */
function lotSeries(ctx: Context, points: ChartRow[]): LineSeriesOption[] {
  const series: LineSeriesOption[] = [];
  const changes = lotChanges(ctx, points);
  const lot = ctx.chart.lotField;
  if (lot && changes.length > 0)
    series.push({
      type: 'line',
      name: ctx.label(lot),
      data: [],
      color: LOT_CHANGE_COLOR,
      markLine: {
        silent: true,
        symbol: 'none',
        lineStyle: { color: LOT_CHANGE_COLOR, type: 'solid', width: 2 },
        label: { formatter: '{b}', color: LOT_CHANGE_COLOR, position: 'insideEndTop' },
        data: changes.map((i) => ({ xAxis: i + 0.5, name: String(points[i]![lot]).replace(/[{}]/g, '') })),
      },
    });
  const spans = periods(ctx, points);
  const period = ctx.chart.periodField;
  if (period && spans.length > 0)
    series.push({
      type: 'line',
      name: ctx.label(period),
      data: [],
      color: ESTABLISHING_COLOR,
      markArea: {
        silent: true,
        itemStyle: { color: ESTABLISHING_COLOR },
        label: { show: true, position: 'insideTop', color: '#1677ff', fontSize: 11 },
        data: spans.map(([a, b]) => [{ xAxis: a + 0.5, name: ctx.label(period) }, { xAxis: b + 1.5 }]),
      },
    });
  return series;
}

const PUNCTUATION: Record<Locale, { colon: string; comma: string; semicolon: string }> = {
  'zh-CN': { colon: '：', comma: '，', semicolon: '；' },
  'en-US': { colon: ': ', comma: ', ', semicolon: '; ' },
};

/**
 * What the chart shows, in words, for a screen reader ("标本量：生化组 2，临检组 1"): ECharts' own
 * description would read out every reference line's coordinates.
 */
function describe(
  ctx: Context,
  parts: { name: string; items: [string, string | number | null][] }[],
): AriaComponentOption {
  const p = PUNCTUATION[ctx.locale];
  const description = parts
    .filter((part) => part.items.length > 0)
    .map(
      (part) => `${part.name}${p.colon}${part.items.map(([what, value]) => `${what} ${value ?? NONE}`).join(p.comma)}`,
    )
    .join(p.semicolon);
  return { enabled: true, label: { description } };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const tooltipOf = (trigger: 'axis' | 'item'): TooltipComponentOption => ({
  trigger,
  confine: true,
  valueFormatter: (v) => (v === null || v === undefined ? NONE : String(v)),
});

/** A run's tooltip: when, each value, the rules it broke. */
function runTooltip(ctx: Context, points: ChartRow[]) {
  return (params: unknown) => {
    const x = ((params as { value?: unknown[] }).value ?? [])[0];
    const row = typeof x === 'number' ? points[x - 1] : undefined;
    if (!row) return '';
    const lines = [
      ctx.text(ctx.chart.x, row),
      ...ctx.chart.values.map((key) => `${ctx.label(key)}: ${numberOf(row[key]) ?? NONE}`),
    ];
    const rules = ctx.chart.violationField;
    if (rules && !isEmpty(row[rules])) lines.push(`${ctx.label(rules)}: ${ctx.text(rules, row)}`);
    return lines.map(escapeHtml).join('<br/>');
  };
}

/** Levey-Jennings: each run a point in run order, the reference lines, the violations; the axis fits the ±3 SD lines. */
function leveyJennings(ctx: Context, rows: ChartRow[]): ChartOption {
  const points = ascending(rows, ctx.chart.x);
  const runs = points.map((r) => ctx.text(ctx.chart.x, r));
  const values: LineSeriesOption[] = ctx.chart.values.map((key) => ({
    type: 'line',
    name: ctx.label(key),
    data: points.map((r, i) => [i + 1, numberOf(r[key])]),
    symbol: 'circle',
    symbolSize: 7,
    z: 3,
    color: '#1677ff',
  }));
  const violations = violationSeries(ctx, points);
  const references = referenceSeries(ctx, points);
  const lots = lotSeries(ctx, points);
  const rules = ctx.chart.violationField;
  const broken = rules ? points.filter((r) => !isEmpty(r[rules])) : [];
  const lot = ctx.chart.lotField;
  const period = ctx.chart.periodField;
  const aria = describe(ctx, [
    ...ctx.chart.values.map((key) => ({
      name: ctx.label(key),
      items: points.map((r, i): [string, number | null] => [runs[i]!, numberOf(r[key])]),
    })),
    ...(rules
      ? [
          {
            name: ctx.label(rules),
            items: broken.map((r): [string, string] => [ctx.text(ctx.chart.x, r), ctx.text(rules, r)]),
          },
        ]
      : []),
    // Each lot from its first run, and each establishing period from its first to its last run.
    ...(lot && lotChanges(ctx, points).length > 0
      ? [
          {
            name: ctx.label(lot),
            items: [0, ...lotChanges(ctx, points)].map((i): [string, string] => [runs[i]!, ctx.text(lot, points[i]!)]),
          },
        ]
      : []),
    ...(period
      ? [
          {
            name: ctx.label(period),
            items: periods(ctx, points).map(([a, b]): [string, string] => [runs[a]!, `– ${runs[b]}`]),
          },
        ]
      : []),
  ]);
  return {
    aria,
    tooltip: { trigger: 'item', confine: true, formatter: runTooltip(ctx, points) },
    legend: {
      top: 0,
      data: [...values, ...(violations ? [violations] : []), ...lots].map((s) => String(s.name)),
    },
    grid: grid(references.length > 0 ? 56 : 16),
    xAxis: {
      type: 'value',
      min: 0.5,
      max: points.length + 0.5,
      minInterval: 1,
      splitLine: { show: false },
      axisLabel: { hideOverlap: true, formatter: (x: number) => (Number.isInteger(x) ? (runs[x - 1] ?? '') : '') },
    },
    // The reference lines are the grid a control chart is read against.
    yAxis: { type: 'value', scale: true, splitLine: { show: false } },
    series: [...references, ...lots, ...values, ...(violations ? [violations] : [])],
  };
}

function barOrLine(ctx: Context, rows: ChartRow[]): ChartOption {
  const kind = ctx.chart.kind === 'line' ? 'line' : 'bar';
  const ordered = kind === 'line' ? ascending(rows, ctx.chart.x) : rows;
  const { categories, series } = aggregate(ctx, ordered);
  const stack = ctx.chart.stack && kind === 'bar' ? 'total' : undefined;
  const drawn = series.map((s) =>
    kind === 'bar'
      ? ({
          type: 'bar',
          name: s.name,
          data: s.data,
          stack,
          barMaxWidth: 48,
          emphasis: { focus: 'series' },
        } satisfies BarSeriesOption)
      : ({ type: 'line', name: s.name, data: s.data, symbolSize: 6 } satisfies LineSeriesOption),
  );
  return {
    aria: describe(
      ctx,
      series.map((s) => ({
        name: s.name,
        items: categories.map((c, i): [string, number | null] => [c, s.data[i] ?? null]),
      })),
    ),
    tooltip: tooltipOf('axis'),
    legend: { top: 0, type: 'scroll', data: drawn.map((s) => s.name) },
    grid: grid(16),
    xAxis: {
      type: 'category',
      data: categories,
      axisLabel: { interval: 0, rotate: categories.length > 8 ? 30 : 0, hideOverlap: true },
    },
    // Counts never read 0.5.
    yAxis: {
      type: 'value',
      minInterval: ctx.chart.values.every((k) => ctx.field(k)?.type === 'integer') ? 1 : undefined,
    },
    series: drawn,
  };
}

function pie(ctx: Context, rows: ChartRow[]): ChartOption {
  const { categories, series } = aggregate(
    { ...ctx, chart: { ...ctx.chart, values: ctx.chart.values.slice(0, 1), seriesField: undefined } },
    rows,
  );
  const [only] = series;
  return {
    aria: describe(ctx, [
      { name: only!.name, items: categories.map((c, i): [string, number | null] => [c, only!.data[i] ?? null]) },
    ]),
    tooltip: { ...tooltipOf('item'), formatter: '{b}: {c} ({d}%)' },
    legend: { type: 'scroll', orient: 'vertical', left: 0, top: 'middle', data: categories },
    series: [
      {
        type: 'pie',
        name: only!.name,
        center: ['60%', '50%'],
        radius: ['35%', '70%'],
        data: categories.map((name, i) => ({ name, value: only!.data[i] ?? 0 })),
        label: { formatter: '{b}: {d}%' },
      },
    ],
  };
}

/**
 * The chart of a screen for the rows of its query: one panel, or one per value of the panel field
 * (each QC plan has its own mean and SD), at most MAX_PANELS of them.
 */
export function chartPanels(
  screen: ScreenSchema,
  rows: readonly ChartRow[],
  locale: Locale,
): { panels: ChartPanel[]; hiddenPanels: number } {
  const chart = screen.chart;
  if (!chart || rows.length === 0) return { panels: [], hiddenPanels: 0 };
  const field = (key: string) => screen.fields.find((f) => f.key === key);
  const ctx: Context = {
    chart,
    locale,
    field,
    label: (key) => field(key)?.label[locale] ?? key,
    text: (key, row) => valueText(field(key), row, locale),
  };
  const draw = chart.kind === 'leveyJennings' ? leveyJennings : chart.kind === 'pie' ? pie : barOrLine;
  if (!chart.panelField) return { panels: [{ key: '', option: draw(ctx, [...rows]) }], hiddenPanels: 0 };
  const groups = new Map<string, ChartRow[]>();
  for (const row of rows) {
    const title = ctx.text(chart.panelField, row);
    const group = groups.get(title);
    if (group) group.push(row);
    else groups.set(title, [row]);
  }
  const panels = [...groups]
    .slice(0, MAX_PANELS)
    .map(([title, groupRows]) => ({ key: title, title, option: draw(ctx, groupRows) }));
  return { panels, hiddenPanels: groups.size - panels.length };
}
