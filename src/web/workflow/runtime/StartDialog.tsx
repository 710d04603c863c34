import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { errorMessage } from '../../api/http';
import { notify } from '../../feedback/feedback';
import { rt } from './i18n';
import { startProcess, type DeploymentRow } from './api';
import { dialogFit } from '../../screens/fit/dialogFit';

/**
 * 发起流程: the newest deployment of a model, a business key (a specimen's barcode, a request number)
 * and variables as name / value rows; a value that reads as a number or true / false is sent as one.
 */
interface Values {
  deploymentId: string;
  businessKey?: string;
  variables?: { name?: string; value?: string }[];
}

function typed(value: string | undefined): unknown {
  const text = (value ?? '').trim();
  if (text === 'true' || text === 'false') return text === 'true';
  return text !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
}

/** The newest version of each key: what a new instance should run. */
function newest(rows: DeploymentRow[]): DeploymentRow[] {
  const byKey = new Map<string, DeploymentRow>();
  for (const row of rows) if ((byKey.get(row.key)?.version ?? 0) < row.version) byKey.set(row.key, row);
  return [...byKey.values()];
}

export function StartDialog({
  deployments,
  chosen,
  onClose,
  onStarted,
}: {
  deployments: DeploymentRow[];
  chosen?: string;
  onClose: () => void;
  onStarted: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const submit = async (values: Values) => {
    const variables = Object.fromEntries(
      (values.variables ?? []).filter((v) => v.name?.trim()).map((v) => [v.name!.trim(), typed(v.value)]),
    );
    setSaving(true);
    try {
      notify.success(
        await startProcess({
          deploymentId: values.deploymentId,
          businessKey: values.businessKey?.trim() || null,
          variables,
        }),
      );
      onStarted();
    } catch (e) {
      notify.error(errorMessage(e, rt('操作失败')));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={rt('发起流程')}
      width={560}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={rt('确定')}
      cancelText={rt('取消')}
      confirmLoading={saving}
      destroyOnHidden
      className="start-dialog"
      {...dialogFit}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ deploymentId: chosen }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item
          name="deploymentId"
          label={rt('流程模型')}
          rules={[{ required: true, message: rt('请选择流程模型') }]}
        >
          <Select
            data-testid="start-model"
            showSearch={{ optionFilterProp: 'label' }}
            options={newest(deployments).map((d) => ({ value: d.id, label: `${d.name} (${d.key} v${d.version})` }))}
          />
        </Form.Item>
        <Form.Item name="businessKey" label={rt('业务编号')}>
          <Input data-testid="start-business-key" maxLength={200} />
        </Form.Item>
        <Form.List name="variables">
          {(fields, { add, remove }) => (
            <Form.Item label={rt('流程变量')}>
              {fields.map((field) => (
                <Space key={field.key} align="baseline" style={{ display: 'flex', marginBottom: 8 }}>
                  <Form.Item name={[field.name, 'name']} noStyle>
                    <Input placeholder={rt('变量名')} style={{ width: 180 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'value']} noStyle>
                    <Input placeholder={rt('变量值')} style={{ width: 240 }} />
                  </Form.Item>
                  <MinusCircleOutlined onClick={() => remove(field.name)} />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add()}>
                {rt('添加变量')}
              </Button>
            </Form.Item>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
