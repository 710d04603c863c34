import { useState } from 'react';
import { Form, Input, Modal } from 'antd';
import type { RuleObject } from 'antd/es/form';
import { useNavigate } from 'react-router';
import { errorMessage, http, type Result } from '../api/http';
import { notify } from '../feedback/feedback';
import { resetSession } from '../session/pageEntry';
import { useT, type UiKey } from '../i18n';
import { checkConfirmPassword, checkNewPassword, checkOldPassword } from '../../shared/password/policy';
import { resetTags } from './tags/tagsStore';
import { leaveLoginNotice } from '../auth/loginNotice';

interface PasswordForm {
  password: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Spec 2.5 / 5: the change-password dialog. Rules are checked on blur with the spec's messages (the
 * same rule functions the server runs). When `forced` (passwordFlag 1) it cannot be closed.
 */
export default function ChangePasswordDialog({
  open,
  forced,
  onClose,
}: {
  open: boolean;
  forced: boolean;
  onClose: () => void;
}) {
  const t = useT();
  const navigate = useNavigate();
  const [form] = Form.useForm<PasswordForm>();
  const [busy, setBusy] = useState(false);

  const rule = (check: (value: string | undefined) => UiKey | undefined): RuleObject => ({
    validator: async (_, value: string | undefined) => {
      const broken = check(value);
      if (broken) throw new Error(t(broken));
    },
  });

  const close = () => {
    if (forced) {
      notify.warning(t('password.mustChange'));
      return;
    }
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    const values = await form.validateFields();
    setBusy(true);
    try {
      const { data } = await http.post<Result<null>>('/api/user/changePassword', values);
      // The server has ended every session of the account, this one included: no logOut call (it
      // would answer 401 and ask to sign in again).
      leaveLoginNotice(data.resultMessage);
      resetSession();
      resetTags();
      void navigate('/login', { replace: true });
    } catch (e) {
      // Spec 8: the server's message as an error for 1 second.
      notify.error(errorMessage(e, t('common.serverError')), 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={t('password.title')}
      open={open}
      onCancel={close}
      onOk={submit}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      mask={{ closable: false }}
      keyboard={!forced}
      cancelButtonProps={{ style: forced ? { display: 'none' } : undefined }}
      destroyOnHidden
      className="change-password-dialog"
    >
      <Form form={form} layout="vertical" validateTrigger="onBlur" preserve={false}>
        <Form.Item name="password" label={t('password.old')} rules={[rule(checkOldPassword)]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="newPassword" label={t('password.new')} rules={[rule(checkNewPassword)]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('password.confirm')}
          // Spec 5: changing the new password re-checks a confirmation already typed.
          dependencies={['newPassword']}
          rules={[
            rule((value) => checkConfirmPassword(form.getFieldValue('newPassword') as string | undefined, value)),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
