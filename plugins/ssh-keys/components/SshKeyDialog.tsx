import { Alert, Form, Input, Modal, Radio } from 'antd';
import { LazyDatePicker } from '../../../src/core/ui/LazyDatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { SshKey, SshKeyCreateBody, SshKeyScope } from '../contract';
import { looksSupported, SSH_KEY_MAX_LENGTH } from '../rules';

/** Props of the create/edit dialog; `editing` null means create. Mount with a new `key` per opening. */
export interface SshKeyDialogProps {
  open: boolean;
  editing: SshKey | null;
  saving: boolean;
  onCancel(): void;
  /** Saves; resolves to an error text to show, or undefined when done or when the central notice said it (≥ 500). */
  onSubmit(input: SshKeyCreateBody): Promise<string | undefined>;
}

interface FormValues {
  name: string;
  key: string;
  scope: SshKeyScope;
  expiry: 'never' | 'date';
  date?: Dayjs;
}

/** Add or edit an SSH public key: name, key (create only), scope, optional expiry date. */
export function SshKeyDialog({ open, editing, saving, onCancel, onSubmit }: SshKeyDialogProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [form] = Form.useForm<FormValues>();
  const [failure, setFailure] = useState<string>();
  const expiry = Form.useWatch('expiry', form);
  // The page mounts a fresh dialog (new key) each time it opens, so initial values are all it needs.
  const initialValues: Partial<FormValues> = editing
    ? {
        name: editing.name,
        key: editing.key,
        scope: editing.scope,
        expiry: editing.expires_at ? 'date' : 'never',
        date: editing.expires_at && !editing.expired ? dayjs(editing.expires_at) : undefined,
      }
    : { scope: 'read_write', expiry: 'never' };

  const submit = async (v: FormValues) => {
    setFailure(undefined);
    const error = await onSubmit({
      name: v.name.trim(),
      key: v.key.trim(),
      scope: v.scope,
      // The key stays valid through the whole chosen day.
      expires_at: v.expiry === 'date' && v.date ? v.date.endOf('day').toISOString() : null,
    });
    if (error) setFailure(error);
  };

  return (
    <Modal
      open={open}
      title={<FormattedMessage id={editing ? 'ssh-keys.dialog.editTitle' : 'ssh-keys.dialog.createTitle'} />}
      okText={<FormattedMessage id="ssh-keys.form.save" />}
      cancelText={<FormattedMessage id="ssh-keys.form.cancel" />}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onCancel}
      width={640}
      forceRender
    >
      {failure && <Alert type="error" showIcon message={failure} role="alert" style={{ marginBottom: 16 }} />}
      <Form<FormValues>
        form={form}
        layout="vertical"
        requiredMark
        initialValues={initialValues}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item
          name="key"
          label={<FormattedMessage id="ssh-keys.form.key" />}
          extra={editing ? undefined : <FormattedMessage id="ssh-keys.form.keyHint" />}
          rules={[
            { required: true, whitespace: true, message: t('ssh-keys.form.keyRequired') },
            {
              validator: (_, value: string | undefined) =>
                !value || editing || looksSupported(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('ssh-keys.form.keyUnsupported'))),
            },
          ]}
        >
          <Input.TextArea
            rows={5}
            disabled={!!editing}
            maxLength={SSH_KEY_MAX_LENGTH}
            placeholder={t('ssh-keys.form.keyPlaceholder')}
            style={{ fontFamily: 'monospace' }}
            spellCheck={false}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={<FormattedMessage id="ssh-keys.form.name" />}
          rules={[{ required: true, whitespace: true, message: t('ssh-keys.form.nameRequired') }]}
        >
          <Input maxLength={200} placeholder={t('ssh-keys.form.namePlaceholder')} />
        </Form.Item>
        <Form.Item name="scope" label={<FormattedMessage id="ssh-keys.form.scope" />} rules={[{ required: true }]}>
          <Radio.Group
            options={[
              { value: 'read_only', label: t('ssh-keys.scope.readOnly') },
              { value: 'read_write', label: t('ssh-keys.scope.readWrite') },
            ]}
          />
        </Form.Item>
        <Form.Item label={<FormattedMessage id="ssh-keys.form.expiry" />} required={false} style={{ marginBottom: 0 }}>
          <Form.Item name="expiry" noStyle>
            <Radio.Group
              options={[
                { value: 'never', label: t('ssh-keys.expires.never') },
                { value: 'date', label: t('ssh-keys.form.expiryDate') },
              ]}
            />
          </Form.Item>
          {expiry === 'date' && (
            <Form.Item
              name="date"
              rules={[{ required: true, message: t('ssh-keys.form.dateRequired') }]}
              style={{ marginTop: 8 }}
            >
              <LazyDatePicker
                format="YYYY-MM-DD"
                aria-label={t('ssh-keys.form.expiryDate')}
                disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
              />
            </Form.Item>
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}
