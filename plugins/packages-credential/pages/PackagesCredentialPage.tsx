import { Alert, Button, Card, Popconfirm, Skeleton, Typography, message } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { edition } from '../../../src/core/edition';
import { formatDateTime } from '../../../src/core/i18n/format';
import { failureText } from '../../../src/core/stores/failure';
import { useStore } from '../../../src/core/stores/root';
import { LazyCredentialSnippets } from '../../../src/core/ui/LazyCredentialSnippets';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import { Truncated } from '../../../src/core/ui/Truncated';

/** The password's last download let through: when, from which address, with which client; or that it never was. */
const LastUseLine = observer(function LastUseLine() {
  const use = useStore('packagesCredential').lastUse;
  if (!use) return <FormattedMessage id="packages-credential.lastUse.never" />;
  return (
    <>
      <FormattedMessage
        id="packages-credential.lastUse.at"
        values={{ time: <LocalTime value={use.at} />, address: use.address }}
      />
      {use.client && (
        <div>
          <Truncated text={use.client} maxWidth="100%" secondary data-testid="packages-last-use-client" />
        </div>
      )}
    </>
  );
});

/** Artifact-repository credential: the username, the password's last use, and a reset whose result is shown once. */
const PackagesCredentialView = observer(function PackagesCredentialView() {
  const store = useStore('packagesCredential');
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [toast, toastHolder] = message.useMessage();

  useEffect(() => {
    void store.load();
    // The one-time password must not survive leaving the screen.
    return () => store.forgetPassword();
  }, [store]);

  const reset = async () => {
    const r = await store.reset();
    if (r.ok) void toast.success(t('packages-credential.reset.success'));
    // Nothing to add for a response ≥ 500: the central notice (with its requestId) has said it.
    else if (r.failure) void toast.error(failureText(r.failure, t));
  };

  const help = edition.helpLinks.packagesCredential;
  const info = store.info;
  return (
    <section aria-labelledby="packages-credential-title">
      {toastHolder}
      <Typography.Title id="packages-credential-title" level={1} style={{ fontSize: 20, marginTop: 0 }}>
        <FormattedMessage id="packages-credential.sidebar.title" />
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        <FormattedMessage id="packages-credential.page.description" />{' '}
        {help && (
          <a href={help} target="_blank" rel="noopener noreferrer" style={{ textDecoration: 'underline' }}>
            <FormattedMessage id="packages-credential.page.helpLink" />
          </a>
        )}
      </Typography.Paragraph>
      {store.loading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : store.failed || !info ? (
        <Alert type="error" showIcon role="alert" message={t('packages-credential.loadFailed')} />
      ) : (
        <Card style={{ maxWidth: 720 }}>
          {store.newPassword && (
            <Alert
              type="success"
              showIcon
              role="status"
              data-testid="packages-new-password"
              style={{ marginBottom: 16 }}
              message={<FormattedMessage id="packages-credential.reset.shownOnce" />}
              description={
                <>
                  <Typography.Text code copyable={{ text: store.newPassword }} style={{ fontSize: 15 }}>
                    {store.newPassword}
                  </Typography.Text>
                  <div style={{ marginTop: 8 }}>
                    <FormattedMessage id="packages-credential.reset.effectiveAfter" />
                    {info.effective_at && (
                      <>
                        {' '}
                        <FormattedMessage
                          id="packages-credential.reset.effectiveAt"
                          values={{ time: formatDateTime(info.effective_at) }}
                        />
                      </>
                    )}
                  </div>
                </>
              }
            />
          )}
          {store.newPassword && (
            // Ready to paste below the password, full width: .npmrc, Maven and Docker on the edition's artifact host.
            <div style={{ marginBottom: 16 }}>
              <LazyCredentialSnippets
                credential="packages-password"
                secret={store.newPassword}
                username={info.username}
              />
            </div>
          )}
          <dl
            style={{
              display: 'grid',
              gridTemplateColumns: 'minmax(80px, max-content) 1fr',
              gap: '16px 24px',
              margin: 0,
              alignItems: 'center',
            }}
          >
            <dt style={{ color: 'var(--ant-color-text-secondary)' }}>
              <FormattedMessage id="packages-credential.field.username" />
            </dt>
            <dd style={{ margin: 0 }}>
              <Typography.Text copyable data-testid="packages-username">
                {info.username}
              </Typography.Text>
            </dd>
            <dt style={{ color: 'var(--ant-color-text-secondary)' }}>
              <FormattedMessage id="packages-credential.field.password" />
            </dt>
            <dd style={{ margin: 0, display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
              <Typography.Text type={info.has_password ? undefined : 'secondary'}>
                <FormattedMessage
                  id={info.has_password ? 'packages-credential.password.set' : 'packages-credential.password.unset'}
                />
              </Typography.Text>
              <Popconfirm
                title={t('packages-credential.reset.confirm')}
                okText={t('packages-credential.reset.ok')}
                cancelText={t('packages-credential.reset.cancel')}
                onConfirm={reset}
              >
                <Button loading={store.resetting} data-testid="packages-reset">
                  <FormattedMessage
                    id={info.has_password ? 'packages-credential.reset.button' : 'packages-credential.set.button'}
                  />
                </Button>
              </Popconfirm>
            </dd>
            <dt style={{ color: 'var(--ant-color-text-secondary)' }}>
              <FormattedMessage id="packages-credential.field.lastUsed" />
            </dt>
            <dd style={{ margin: 0, minWidth: 0 }} data-testid="packages-last-use">
              <LastUseLine />
            </dd>
          </dl>
          <Typography.Paragraph type="secondary" style={{ marginTop: 20, marginBottom: 0 }}>
            <FormattedMessage id="packages-credential.page.notice" />
          </Typography.Paragraph>
        </Card>
      )}
    </section>
  );
});

/** The section page: its own messages and readable text colours around the view. */
export default function PackagesCredentialPage() {
  return (
    <>
      <PackagesCredentialView />
    </>
  );
}
