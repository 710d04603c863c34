import { Alert, Card, Statistic, Tag } from 'antd';
import { Link } from 'react-router';
import { useSnapshot } from 'valtio';
import type { DashboardLink, DashboardTile } from '../../shared/dashboard/types';
import type { MenuNode } from '../../shared/menu/types';
import { errorMessage } from '../api/http';
import { userState } from '../auth/user';
import { i18n, useT } from '../i18n';
import { flattenRoutes, routeState } from '../permissions/routes';
import { useDashboard } from './useDashboard';

const TONE_COLOR: Record<DashboardTile['tone'], string | undefined> = {
  normal: undefined,
  good: '#389e0d',
  warning: '#d48806',
  danger: '#cf1322',
};

/** The page of the user's routes that shows the linked list, with the count's filter in its address. */
function linkHref(link: DashboardLink | undefined, routes: readonly MenuNode[]): string | undefined {
  if (!link?.menuId) return undefined;
  const page = flattenRoutes(routes).find((r) => r.meta.id === link.menuId && r.isLeaf);
  if (!page) return undefined;
  const query = new URLSearchParams(link.query).toString();
  return query ? `${page.fullPath}?${query}` : page.fullPath;
}

/**
 * The dashboard's counts (issue 24): a card per section, a figure per count; a count whose list the
 * user may open is a link to it, filtered to what was counted. Kept current by the push channel.
 */
export function DashboardCounts() {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const { info } = useSnapshot(userState);
  const { routes } = useSnapshot(routeState);
  const { dashboard, error, loading } = useDashboard(info?.organization.id);
  return (
    <section className="dashboard-counts" aria-busy={loading} aria-label={t('dashboard.counts')}>
      {error !== undefined && <Alert type="warning" showIcon title={errorMessage(error, t('dashboard.failed'))} />}
      {dashboard?.sections.map((section) => (
        <Card
          key={section.key}
          size="small"
          title={section.title[locale]}
          extra={section.groups?.map((group) => (
            <Tag key={group} className="dashboard-group">
              {group}
            </Tag>
          ))}
          data-section={section.key}
        >
          <div className="dashboard-tiles">
            {section.tiles.map((tile) => {
              const href = linkHref(tile.link, routes as MenuNode[]);
              const figure = (
                <Statistic
                  title={tile.label[locale]}
                  value={tile.count}
                  styles={{ content: { color: TONE_COLOR[tile.tone] } }}
                />
              );
              return (
                <div key={tile.key} className="dashboard-tile" data-tile={tile.key}>
                  {href ? <Link to={href}>{figure}</Link> : figure}
                </div>
              );
            })}
          </div>
        </Card>
      ))}
    </section>
  );
}
