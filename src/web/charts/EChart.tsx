import { useEffect, useRef } from 'react';
import type { Locale } from '../../shared/i18n/messages';
import type { ChartOption } from './chartOptions';
import { init, type EChartsType } from './echarts';

/** One ECharts instance on a div: drawn with the option, redrawn when it changes, sized with its box. */
export function EChart({ option, height, locale }: { option: ChartOption; height: number; locale: Locale }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | undefined>(undefined);
  useEffect(() => {
    const element = box.current!;
    // ECharts' own words (aria description, empty tooltips) follow the app's language.
    const instance = init(element, undefined, { renderer: 'svg', locale: locale === 'zh-CN' ? 'ZH' : 'EN' });
    chart.current = instance;
    // A kept-alive tab or a folded sidebar changes the box without a window resize.
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = undefined;
    };
  }, [locale]);
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option, locale]);
  return <div ref={box} className="screen-chart-canvas" style={{ height }} />;
}
