import { useEffect, useState } from 'react';
import { Card, Descriptions } from 'antd';
import { readForScreen } from '../api/earlyReads';
import { USER_INFO_URL, userState, type UserInfo } from '../auth/user';
import { useT } from '../i18n';
import { TaskPanels } from '../workflow/runtime/TaskPanels';
import { DashboardCounts } from './DashboardCounts';

/**
 * Home page (the affix tab): who is signed in and where, read afresh each time the page is built
 * (first visit, or Refresh on its tab), so a role or organisation change shows without signing out (the
 * page-entry read of a moment ago serves a build right after sign-in, earlyReads.ts);
 * below it the day's counts of the user's lab (each a link to its list) and the user's workflow tasks.
 */
export default function DashboardPage() {
  const t = useT();
  const [info, setInfo] = useState<UserInfo | undefined>(userState.info);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    readForScreen<UserInfo>(USER_INFO_URL)
      .then(setInfo, () => undefined)
      .finally(() => setLoading(false));
  }, []);

  return (
    <>
      <Card title={t('dashboard.title')} className="dashboard-page" aria-busy={loading}>
        {info && (
          <>
            <h4 className="dashboard-welcome">{t('dashboard.welcome', { name: info.user.userName })}</h4>
            <Descriptions column={1}>
              <Descriptions.Item label={t('dashboard.org')}>{info.organization.name}</Descriptions.Item>
              <Descriptions.Item label={t('dashboard.roles')}>
                {info.roleList.map((r) => r.name).join('、')}
              </Descriptions.Item>
            </Descriptions>
          </>
        )}
      </Card>
      <DashboardCounts />
      <TaskPanels />
    </>
  );
}
