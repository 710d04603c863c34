import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Empty, Space, message } from 'antd';
import { useSnapshot } from 'valtio';
import type { ScreenSchema } from '../../shared/screens/fields';
import { errorMessage } from '../api/http';
import { i18n, useT } from '../i18n';
import type { ListController } from '../screens/list/useListController';
import { chartPanels } from './chartOptions';
import { EChart } from './EChart';
import { useChartRows } from './useChartRows';
import { chartPng, exportTable, tableExportUrl } from './chartExport';
import { saveFile } from '../screens/download';
import './charts.css';

const DEFAULT_HEIGHT = 280;

/** The chart a screen schema declares, above its table (lazy: the chart library loads with the first chart). */
export default function ScreenChart({ screen, list }: { screen: ScreenSchema; list: ListController }) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const rows = useChartRows(screen, list);
  const box = useRef<HTMLElement>(null);
  const [busy, setBusy] = useState<'table' | 'picture' | undefined>();
  const tableUrl = tableExportUrl(screen);
  const title = screen.title[locale];
  const run = async (what: 'table' | 'picture') => {
    setBusy(what);
    try {
      if (what === 'table') saveFile(await exportTable(tableUrl!, list.params), `${title}.xlsx`);
      else saveFile(await chartPng([...(box.current?.querySelectorAll('svg') ?? [])]), `${title}.png`);
    } catch (error) {
      void message.error(errorMessage(error, t('chart.exportFailed')));
    } finally {
      setBusy(undefined);
    }
  };
  const { panels, hiddenPanels } = useMemo(
    () => chartPanels(screen, rows.records, locale),
    [screen, rows.records, locale],
  );
  const chart = screen.chart;
  if (!chart || list.error !== undefined) return null;
  const panelField = screen.fields.find((f) => f.key === chart.panelField);
  return (
    <section
      ref={box}
      className="screen-chart"
      aria-label={t('chart.region', { title: screen.title[locale] })}
      data-chart-kind={chart.kind}
    >
      {panels.length > 0 && (
        <Space className="screen-chart-export" size="small">
          {tableUrl && (
            <Button size="small" loading={busy === 'table'} onClick={() => void run('table')}>
              {t('chart.exportTable')}
            </Button>
          )}
          <Button size="small" loading={busy === 'picture'} onClick={() => void run('picture')}>
            {t('chart.exportPicture')}
          </Button>
        </Space>
      )}
      {rows.error !== undefined && <Alert type="error" showIcon title={errorMessage(rows.error, t('chart.failed'))} />}
      {rows.total > rows.records.length && (
        <Alert type="info" showIcon title={t('chart.truncated', { n: rows.records.length, total: rows.total })} />
      )}
      {hiddenPanels > 0 && (
        <Alert
          type="info"
          showIcon
          title={t('chart.morePanels', { n: hiddenPanels, field: panelField?.label[locale] ?? '' })}
        />
      )}
      {panels.length === 0 ? (
        !list.loading &&
        rows.error === undefined && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chart.empty')} />
      ) : (
        <div className={panels.length > 1 ? 'screen-chart-panels screen-chart-panels-many' : 'screen-chart-panels'}>
          {panels.map((panel) => (
            <figure key={panel.key} className="screen-chart-panel">
              {panel.title !== undefined && <figcaption>{panel.title}</figcaption>}
              <EChart option={panel.option} height={chart.height ?? DEFAULT_HEIGHT} locale={locale} />
            </figure>
          ))}
        </div>
      )}
    </section>
  );
}
