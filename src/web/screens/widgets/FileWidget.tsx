import { Button, Space, Upload } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { notify } from '../../feedback/feedback';
import { i18n, translate } from '../../i18n';
import { MAX_FILE_BYTES } from '../../../shared/files';

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/**
 * The edit view of an image or file field: choose a file (an image shows as a thumbnail), replace
 * or remove it. The value is the file as a data URL, so no file store is needed for a screen.
 */
export function FileWidget({ id, value, disabled, readonly, onChange, options }: WidgetProps) {
  const image = options.kind === 'image';
  const current = typeof value === 'string' && value ? value : undefined;
  const off = disabled || readonly;
  return (
    <Space id={id} className="file-widget" align="center">
      {current && image && <img src={current} alt="" style={{ maxHeight: 64, maxWidth: 128 }} />}
      {current && !image && (
        <a href={current} download>
          {translate('screen.download', i18n.locale)}
        </a>
      )}
      {!off && (
        <Upload
          accept={image ? 'image/*' : undefined}
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > MAX_FILE_BYTES)
              notify.error(translate('screen.fileTooLarge', i18n.locale, { kb: MAX_FILE_BYTES / 1024 }));
            else
              readAsDataUrl(file).then(
                (url) => onChange(url),
                () => notify.error(translate('screen.fileTooLarge', i18n.locale, { kb: MAX_FILE_BYTES / 1024 })),
              );
            return false;
          }}
        >
          <Button size="small">{translate(current ? 'screen.replaceFile' : 'screen.chooseFile', i18n.locale)}</Button>
        </Upload>
      )}
      {!off && current && (
        <Button size="small" type="link" danger onClick={() => onChange(undefined)}>
          {translate('screen.removeFile', i18n.locale)}
        </Button>
      )}
    </Space>
  );
}
