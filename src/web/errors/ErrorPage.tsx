import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useT } from '../i18n';

/** The 404 and 401 pages (spec 2.1): unknown routes and routes this user may not open. */
export default function ErrorPage({ status }: { status: 404 | 401 }) {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Result
      className={`error-page error-${status}`}
      status={status === 404 ? '404' : '403'}
      title={status}
      subTitle={t(status === 404 ? 'error.404' : 'error.401')}
      extra={
        <Button type="primary" onClick={() => navigate('/dashboard')}>
          {t('error.backHome')}
        </Button>
      }
    />
  );
}
