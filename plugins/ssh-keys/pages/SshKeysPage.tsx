import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, message, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { edition } from '../../../src/core/edition';
import { failureText, type Failure } from '../../../src/core/stores/failure';
import { useStore } from '../../../src/core/stores/root';
import { lazyOverlay } from '../../../src/core/ui/lazyOverlay';
import { CredentialLastUse } from '../../../src/core/ui/CredentialLastUse';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import { ResponsiveTable, useInCard } from '../../../src/core/ui/ResponsiveTable';
import { Truncated } from '../../../src/core/ui/Truncated';
import type { SshKey, SshKeyCreateBody } from '../contract';

/** The add/edit dialog, loaded when it first opens (src/core/ui/lazyOverlay.tsx). */
const SshKeyDialog = lazyOverlay(() =>
  import(/* webpackChunkName: "plugin-ssh-keys-form" */ '../components/SshKeyDialog').then((m) => m.SshKeyDialog),
);

/** A key's name: in the table a long one gives way to the other columns; in a card it has the card's width. */
function KeyName({ name }: { name: string }) {
  return <Truncated text={name} strong maxWidth={useInCard() ? '100%' : 240} data-testid="ssh-key-name" />;
}

/**
 * SSH public keys: add button, count, list (fingerprint as ssh-keygen prints it; a card per key on a narrow window),
 * dialogs, delete.
 */
const SshKeysView = observer(function SshKeysView() {
  const sshKeys = useStore('sshKeys');
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [toast, toastHolder] = message.useMessage();
  // `seq` changes at each opening so the dialog mounts afresh (no stale values, no reset racing typing).
  const [dialog, setDialog] = useState<{ open: boolean; editing: SshKey | null; seq: number }>({
    open: false,
    editing: null,
    seq: 0,
  });
  const openDialog = (editing: SshKey | null) => setDialog((d) => ({ open: true, editing, seq: d.seq + 1 }));
  const closeDialog = () => setDialog((d) => ({ ...d, open: false }));

  useEffect(() => {
    void sshKeys.load();
  }, [sshKeys]);

  // No failure to describe means a response ≥ 500: the central notice (with its requestId) has said it.
  const describe = (f: Failure | undefined) => (f ? failureText(f, t) : undefined);

  const save = async (input: SshKeyCreateBody): Promise<string | undefined> => {
    const editing = dialog.editing;
    const r = editing
      ? await sshKeys.update(editing.id, { name: input.name, scope: input.scope, expires_at: input.expires_at })
      : await sshKeys.create(input);
    if (!r.ok) return describe(r.failure);
    closeDialog();
    void toast.success(t(editing ? 'ssh-keys.message.updated' : 'ssh-keys.message.created'));
    return undefined;
  };

  const remove = async (key: SshKey) => {
    const r = await sshKeys.remove(key.id);
    if (r.ok) void toast.success(t('ssh-keys.message.deleted'));
    else if (r.failure) void toast.error(describe(r.failure));
  };

  const columns: ColumnsType<SshKey> = [
    {
      title: t('ssh-keys.column.name'),
      dataIndex: 'name',
      render: (name: string, k) => (
        <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 4, minWidth: 0 }}>
          <KeyName name={name} />
          {k.expired && (
            <Tag color="error" data-testid="ssh-key-expired">
              <FormattedMessage id="ssh-keys.expired" />
            </Tag>
          )}
        </div>
      ),
    },
    {
      title: t('ssh-keys.column.fingerprint'),
      dataIndex: 'fingerprint',
      render: (f: string) => (
        <Typography.Text
          code
          copyable={{ text: f }}
          style={{ fontSize: 12, overflowWrap: 'anywhere' }}
          data-testid="ssh-key-fingerprint"
        >
          {f}
        </Typography.Text>
      ),
    },
    {
      title: t('ssh-keys.column.scope'),
      dataIndex: 'scope',
      render: (s: string) => (
        <Tooltip title={t(s === 'read_only' ? 'ssh-keys.scope.readOnly' : 'ssh-keys.scope.readWrite')}>
          <span>
            <FormattedMessage
              id={s === 'read_only' ? 'ssh-keys.scope.readOnlyShort' : 'ssh-keys.scope.readWriteShort'}
            />
          </span>
        </Tooltip>
      ),
    },
    {
      title: t('ssh-keys.column.expiresAt'),
      dataIndex: 'expires_at',
      render: (v: string | null) => (v ? <LocalTime value={v} /> : <FormattedMessage id="ssh-keys.column.never" />),
    },
    {
      title: t('ssh-keys.column.lastUsedAt'),
      key: 'lastUsed',
      render: (_, k) => (
        <CredentialLastUse
          kind="ssh-key"
          id={k.id}
          name={k.name}
          lastUse={k.last_use}
          lastUsedAt={k.last_used_at}
          data-testid="ssh-key-last-use"
        />
      ),
    },
    { title: t('ssh-keys.column.createdAt'), dataIndex: 'created_at', render: (v: string) => <LocalTime value={v} /> },
    {
      title: t('ssh-keys.column.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, k) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => openDialog(k)}>
            <FormattedMessage id="ssh-keys.action.edit" />
          </Button>
          <Popconfirm
            title={t('ssh-keys.delete.confirm', { name: k.name })}
            okText={t('ssh-keys.action.delete')}
            cancelText={t('ssh-keys.form.cancel')}
            okButtonProps={{ danger: true, loading: sshKeys.saving }}
            onConfirm={() => remove(k)}
          >
            <Button type="link" size="small" danger>
              <FormattedMessage id="ssh-keys.action.delete" />
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const help = edition.helpLinks.sshKey;
  return (
    <section aria-labelledby="ssh-keys-title">
      {toastHolder}
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Typography.Title id="ssh-keys-title" level={1} style={{ fontSize: 20, margin: 0, flex: 1 }}>
          <FormattedMessage id="ssh-keys.sidebar.title" />
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => openDialog(null)}>
          <FormattedMessage id="ssh-keys.page.add" />
        </Button>
      </div>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        <FormattedMessage id="ssh-keys.page.description" />{' '}
        {help && (
          <a href={help} target="_blank" rel="noopener noreferrer" style={{ textDecoration: 'underline' }}>
            <FormattedMessage id="ssh-keys.page.helpLink" />
          </a>
        )}
      </Typography.Paragraph>
      {sshKeys.failed ? (
        <Alert type="error" showIcon message={t('ssh-keys.message.loadFailed')} role="alert" />
      ) : (
        <>
          {!sshKeys.loading && (
            <Typography.Text type="secondary" data-testid="ssh-key-count">
              <FormattedMessage id="ssh-keys.page.count" values={{ count: sshKeys.keys.length }} />
            </Typography.Text>
          )}
          <ResponsiveTable<SshKey>
            data-testid="ssh-key-card"
            rowKey="id"
            size="middle"
            style={{ marginTop: 12 }}
            loading={sshKeys.loading}
            columns={columns}
            dataSource={sshKeys.keys}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('ssh-keys.page.empty')} /> }}
          />
        </>
      )}
      <SshKeyDialog
        key={dialog.seq}
        open={dialog.open}
        editing={dialog.editing}
        saving={sshKeys.saving}
        onCancel={closeDialog}
        onSubmit={save}
      />
    </section>
  );
});

/** The section page: its own messages and readable text colours around the view. */
export default function SshKeysPage() {
  return (
    <>
      <SshKeysView />
    </>
  );
}
