import { Button, Form, Input, Modal, Tag, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useSecondsUntil } from '../../../src/core/ui/useSecondsUntil';
import { MailedCodeField } from './MailedCodeField';
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

/** What the e-mail dialog asks: the address (not when unbinding) and, without a password, the mailed code. */
interface EmailFormValues {
  email: string;
  code?: string;
}

/**
 * Notification e-mail: none → bound but not verified (resend with countdown) → verified; modify and unbind. Who is
 * asking is proved by re-authentication (the core's dialog asks for the password when the service wants a proof);
 * an account without a password of its own or its directory's also gives a code mailed to its current address.
 */
export const EmailRow = observer(function EmailRow({ store, email, verified, notify }: EmailRowProps) {
  const intl = useIntl();
  const [editing, setEditing] = useState<'bind' | 'rebind' | 'unbind' | null>(null);
  const [form] = Form.useForm<EmailFormValues>();
  const seconds = useSecondsUntil(store.resendAvailableAt);
  // The mailbox proof of an account without a password (its own or its directory's): a code to the current address.
  const needsCode = store.directory === null && !store.hasPassword && !!email;

  const close = () => {
    setEditing(null);
    form.resetFields();
  };
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v || !editing) return;
    const given = { code: v.code?.trim() || undefined };
    const r =
      editing === 'unbind' ? await store.unbindEmail(given) : await store.sendActivation(editing, v.email, given);
    notify(r, editing === 'unbind' ? 'profile.email.unbindSuccess' : 'profile.email.sent');
    if (r.ok) close();
  };
  const placeholderId = editing === 'rebind' ? 'profile.email.modifyPlaceholder' : 'profile.email.bindPlaceholder';
  const titleId = {
    bind: 'profile.email.bindTitle',
    rebind: 'profile.email.modifyTitle',
    unbind: 'profile.email.unbindTitle',
  }[editing ?? 'bind'];

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
      <Button size="small" onClick={() => setEditing('rebind')} data-testid="profile-email-modify">
        <FormattedMessage id="profile.email.modify" />
      </Button>
      <Button size="small" onClick={() => setEditing('unbind')} data-testid="profile-email-unbind">
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
              <Tag
                style={{
                  ...TAG,
                  color: 'light-dark(#135200, #95de64)',
                  background: 'light-dark(#f6ffed, #162312)',
                  borderColor: 'light-dark(#b7eb8f, #274916)',
                }}
              >
                <FormattedMessage id="profile.email.verified" />
              </Tag>
            ) : (
              <Tag
                style={{
                  ...TAG,
                  color: 'light-dark(#873800, #ffc069)',
                  background: 'light-dark(#fff7e6, #2b1d11)',
                  borderColor: 'light-dark(#ffd591, #594214)',
                }}
              >
                <FormattedMessage id="profile.email.notVerified" />
              </Tag>
            )}
          </span>
        ) : (
          <Typography.Text style={{ color: 'var(--ant-color-text-secondary)' }}>
            <FormattedMessage id="profile.email.none" />
          </Typography.Text>
        )}
      </ProfileRow>
      <Modal
        open={editing !== null}
        title={<FormattedMessage id={titleId} />}
        okText={<FormattedMessage id={editing === 'unbind' ? 'profile.email.unbind' : 'profile.email.send'} />}
        okButtonProps={{ danger: editing === 'unbind' }}
        cancelText={<FormattedMessage id="profile.common.cancel" />}
        confirmLoading={store.emailSaving}
        onOk={() => void submit()}
        onCancel={close}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void submit()}>
          {editing === 'unbind' ? (
            <>
              <p>
                <FormattedMessage id="profile.email.unbindConfirm" values={{ email: email ?? '' }} />
              </p>
              <p>
                <FormattedMessage id="profile.email.unbindWarning" />
              </p>
            </>
          ) : (
            <>
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
            </>
          )}
          {needsCode && (
            <MailedCodeField
              sentTo={store.codeSentTo}
              hint={<FormattedMessage id="profile.email.codeHint" />}
              availableAt={store.codeAvailableAt}
              sending={store.emailSaving}
              onSend={async () => notify(await store.sendEmailCode(), 'profile.email.codeSentShort')}
              testId="profile-email"
            />
          )}
          <button type="submit" hidden />
        </Form>
      </Modal>
    </>
  );
});
