import { Alert, Button, Space, Typography } from 'antd';
import { useT } from '../i18n';
import type { Worksheet } from './list/useWorksheet';

/** Above a worksheet: how to type in it, save the changed rows together or discard them, and why a save was refused. */
export function WorksheetBar({ sheet }: { sheet: Worksheet }) {
  const t = useT();
  const n = sheet.edits.size;
  return (
    <div className="screen-worksheet" data-testid="worksheet-bar">
      <Space wrap>
        <Button type="primary" disabled={n === 0} loading={sheet.saving} onClick={() => void sheet.save()}>
          {t('screen.worksheetSave', { n })}
        </Button>
        <Button disabled={n === 0 || sheet.saving} onClick={sheet.discard}>
          {t('screen.worksheetDiscard')}
        </Button>
        <Typography.Text type="secondary">{t('screen.worksheetHint')}</Typography.Text>
      </Space>
      {sheet.error && <Alert type="error" showIcon title={sheet.error} />}
    </div>
  );
}
