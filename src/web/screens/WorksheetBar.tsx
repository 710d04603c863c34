import { Alert, Button, Segmented, Space, Typography } from 'antd';
import { useT } from '../i18n';
import type { Worksheet } from './list/useWorksheet';

/**
 * Above a worksheet: the grid or the list (where it has a grid), how to type in it, save the changed
 * rows together or discard them, and why a save was refused.
 */
export function WorksheetBar({
  sheet,
  grid = false,
  onGrid,
}: {
  sheet: Worksheet;
  grid?: boolean;
  onGrid?: (grid: boolean) => void;
}) {
  const t = useT();
  const n = sheet.edits.size;
  return (
    <div className="screen-worksheet" data-testid="worksheet-bar">
      <Space wrap>
        {onGrid && (
          <Segmented
            value={grid ? 'grid' : 'list'}
            onChange={(v) => onGrid(v === 'grid')}
            options={[
              { value: 'grid', label: t('screen.worksheetGrid') },
              { value: 'list', label: t('screen.worksheetList') },
            ]}
          />
        )}
        <Button type="primary" disabled={n === 0} loading={sheet.saving} onClick={() => void sheet.save()}>
          {t('screen.worksheetSave', { n })}
        </Button>
        <Button disabled={n === 0 || sheet.saving} onClick={sheet.discard}>
          {t('screen.worksheetDiscard')}
        </Button>
        <Typography.Text type="secondary">
          {t(grid ? 'screen.worksheetGridHint' : 'screen.worksheetHint')}
        </Typography.Text>
      </Space>
      {sheet.error && <Alert type="error" showIcon title={sheet.error} />}
    </div>
  );
}
