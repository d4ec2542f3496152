import { Button, Form, Input, Modal, Tag, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useSecondsUntil } from '../../../src/core/ui/useSecondsUntil';
import { FormattedMessage, useIntl } from 'react-intl';
import { validateEmail } from '../../../src/core/validation';
import type { ActionResult } from '../../../src/core/stores/failure';
import type { ProfileStore } from '../store';
import { ProfileRow } from './ProfileRow';

/** Props of the e-mail row. */
export interface EmailRowProps {
  store: ProfileStore;
  email: string | null;
  verified: boolean;
  /** Shows the outcome of an action as a message (success id on success). */
  notify: (result: ActionResult, successId: string, values?: Record<string, string>) => void;
}

// antd's preset tag colours are below WCAG AA contrast at 12 px; these keep the hues, darker.
const TAG = { marginInlineStart: 8 } as const;

/** Notification e-mail: none → bound but not verified (resend with countdown) → verified; modify and unbind. */
export const EmailRow = observer(function EmailRow({ store, email, verified, notify }: EmailRowProps) {
  const intl = useIntl();
  const [modal, modalHolder] = Modal.useModal();
  const [editing, setEditing] = useState<'bind' | 'rebind' | null>(null);
  const [form] = Form.useForm<{ email: string }>();
  const seconds = useSecondsUntil(store.resendAvailableAt);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v || !editing) return;
    const r = await store.sendActivation(editing, v.email);
    notify(r, 'profile.email.sent');
    if (r.ok) {
      setEditing(null);
      form.resetFields();
    }
  };
  const confirmUnbind = () =>
    void modal.confirm({
      title: intl.formatMessage({ id: 'profile.email.unbindConfirm' }, { email: email ?? '' }),
      content: intl.formatMessage({ id: 'profile.email.unbindWarning' }),
      okText: intl.formatMessage({ id: 'profile.email.unbind' }),
      okButtonProps: { danger: true },
      cancelText: intl.formatMessage({ id: 'profile.common.cancel' }),
      onOk: async () => notify(await store.unbindEmail(), 'profile.email.unbindSuccess'),
    });
  const placeholderId = editing === 'rebind' ? 'profile.email.modifyPlaceholder' : 'profile.email.bindPlaceholder';

  const actions = email ? (
    <>
      {!verified && (
        <Button
          size="small"
          disabled={seconds > 0 || store.emailSaving}
          onClick={async () => notify(await store.sendActivation('resend', email), 'profile.email.sent')}
          data-testid="profile-email-resend"
        >
          {seconds > 0 ? (
            <FormattedMessage id="profile.email.resendIn" values={{ seconds }} />
          ) : (
            <FormattedMessage id="profile.email.resend" />
          )}
        </Button>
      )}
      <Button size="small" onClick={() => setEditing('rebind')}>
        <FormattedMessage id="profile.email.modify" />
      </Button>
      <Button size="small" onClick={confirmUnbind}>
        <FormattedMessage id="profile.email.unbind" />
      </Button>
    </>
  ) : (
    <Button size="small" onClick={() => setEditing('bind')}>
      <FormattedMessage id="profile.email.bind" />
    </Button>
  );

  return (
    <>
      {modalHolder}
      <ProfileRow
        testId="profile-email"
        label={<FormattedMessage id="profile.email.label" />}
        actions={actions}
        help={<FormattedMessage id="profile.email.help" />}
      >
        {email ? (
          <span>
            <Typography.Text data-testid="profile-email-value">{email}</Typography.Text>
            {verified ? (
              <Tag style={{ ...TAG, color: '#135200', background: '#f6ffed', borderColor: '#b7eb8f' }}>
                <FormattedMessage id="profile.email.verified" />
              </Tag>
            ) : (
              <Tag style={{ ...TAG, color: '#873800', background: '#fff7e6', borderColor: '#ffd591' }}>
                <FormattedMessage id="profile.email.notVerified" />
              </Tag>
            )}
          </span>
        ) : (
          <Typography.Text style={{ color: 'rgba(0, 0, 0, 0.65)' }}>
            <FormattedMessage id="profile.email.none" />
          </Typography.Text>
        )}
      </ProfileRow>
      <Modal
        open={editing !== null}
        title={<FormattedMessage id={editing === 'rebind' ? 'profile.email.modifyTitle' : 'profile.email.bindTitle'} />}
        okText={<FormattedMessage id="profile.email.send" />}
        cancelText={<FormattedMessage id="profile.common.cancel" />}
        confirmLoading={store.emailSaving}
        onOk={() => void submit()}
        onCancel={() => {
          setEditing(null);
          form.resetFields();
        }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void submit()}>
          <p>
            <FormattedMessage id="profile.email.activationHint" />
          </p>
          <Form.Item
            name="email"
            label={<FormattedMessage id="profile.email.address" />}
            rules={[
              {
                validator: (_: unknown, v: string) => {
                  const value = (v ?? '').trim();
                  if (!value) return Promise.reject(new Error(intl.formatMessage({ id: placeholderId })));
                  const id = validateEmail(value);
                  return id ? Promise.reject(new Error(intl.formatMessage({ id }))) : Promise.resolve();
                },
              },
            ]}
          >
            <Input type="email" autoComplete="email" placeholder={intl.formatMessage({ id: placeholderId })} />
          </Form.Item>
          <button type="submit" hidden />
        </Form>
      </Modal>
    </>
  );
});
