// `use` renamed: the React lint rules read any `use(...)` as the React hook.
import { init, use as register, type EChartsType } from 'echarts/core';
import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import {
  AriaComponent,
  GridComponent,
  LegendScrollComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
} from 'echarts/components';
import { LabelLayout } from 'echarts/features';
import { SVGRenderer } from 'echarts/renderers';

/**
 * The parts of ECharts the screen charts use, and nothing else (tree-shaken core). SVG rather than
 * canvas: crisp when printed, and the labels stay text that assistive technology and tests can read.
 */
register([
  BarChart,
  LineChart,
  PieChart,
  ScatterChart,
  AriaComponent,
  GridComponent,
  LegendScrollComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  LabelLayout,
  SVGRenderer,
]);

export { init, type EChartsType };
