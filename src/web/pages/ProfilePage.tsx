import { Card, Descriptions } from 'antd';
import { useSnapshot } from 'valtio';
import { userState } from '../auth/user';
import { useT } from '../i18n';

/** /profile (hidden): who is signed in, in which organisation, with which roles. */
export default function ProfilePage() {
  const t = useT();
  const { info } = useSnapshot(userState);
  return (
    <Card title={t('shell.profile')} className="profile-page">
      {info && (
        <Descriptions column={1} bordered>
          <Descriptions.Item label={t('profile.account')}>{info.user.userAccount}</Descriptions.Item>
          <Descriptions.Item label={t('profile.name')}>{info.user.userName}</Descriptions.Item>
          <Descriptions.Item label={t('dashboard.org')}>{info.organization.name}</Descriptions.Item>
          <Descriptions.Item label={t('dashboard.roles')}>
            {info.roleList.map((r) => r.name).join('、')}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
