import { Card, Typography } from 'antd';
import { useSnapshot } from 'valtio';
import { i18n, useT } from '../i18n';
import type { MenuMeta } from '../../shared/menu/types';

/**
 * A page of the menu tree whose screen is not built yet: its title, what it is for, and a plain notice.
 * Screen schemas (schemas/*.json) replace it route by route.
 */
export default function PagePlaceholder({ meta }: { meta: Pick<MenuMeta, 'title' | 'description'> }) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  return (
    <Card className="page-placeholder" title={meta.title[locale]}>
      {meta.description && <Typography.Paragraph>{meta.description}</Typography.Paragraph>}
      <Typography.Paragraph type="secondary">{t('placeholder.notice')}</Typography.Paragraph>
    </Card>
  );
}
