import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Avatar, Button, Card, Empty, List, Result, Skeleton, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { edition } from '../../../src/core/edition';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import { useStore } from '../../../src/core/stores/root';

/**
 * Identity-provider bindings: the bound identity sources (a directory by its display name, when bound, and its entry
 * id), or 'no identity source bound, how to bind?'.
 */
const IdentityProviderView = observer(function IdentityProviderView() {
  const store = useStore('identityProviders');

  useEffect(() => {
    void store.load();
  }, [store]);

  const help = edition.helpLinks.identityProvider;
  return (
    <section aria-labelledby="identity-provider-title">
      <Typography.Title id="identity-provider-title" level={1} style={{ fontSize: 20, marginTop: 0 }}>
        <FormattedMessage id="identity-provider.sidebar.title" />
      </Typography.Title>
      {store.loading ? (
        <Skeleton active avatar paragraph={{ rows: 2 }} />
      ) : store.failed ? (
        <Result
          status="error"
          title={<FormattedMessage id="identity-provider.loadFailed" />}
          extra={
            <Button type="primary" onClick={() => void store.load()}>
              <FormattedMessage id="identity-provider.retry" />
            </Button>
          }
        />
      ) : !store.bindings.length ? (
        <Empty
          data-testid="identity-provider-empty"
          description={
            <FormattedMessage
              id="identity-provider.empty"
              values={{
                link: (chunks) =>
                  help ? (
                    <a href={help} target="_blank" rel="noopener noreferrer" style={{ textDecoration: 'underline' }}>
                      {chunks}
                    </a>
                  ) : (
                    <>{chunks}</>
                  ),
              }}
            />
          }
        />
      ) : (
        <Card styles={{ body: { padding: '0 24px' } }} style={{ maxWidth: 720 }}>
          <List
            dataSource={store.bindings}
            renderItem={(b) => (
              <List.Item data-testid="identity-provider-item">
                <div style={{ display: 'flex', alignItems: 'center', gap: 16, minWidth: 0 }}>
                  <Avatar icon={<SafetyCertificateOutlined />} aria-hidden style={{ flex: 'none' }} />
                  <div style={{ minWidth: 0 }}>
                    {/* A directory's display name; its entry id (a UUID) means nothing to a person, so it comes last. */}
                    <Typography.Text strong>{b.name}</Typography.Text>
                    <div>
                      <Typography.Text type="secondary">
                        <FormattedMessage
                          id="identity-provider.boundAt"
                          values={{ date: <LocalTime value={b.created_at} date /> }}
                        />
                      </Typography.Text>
                    </div>
                    <div>
                      <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
                        <FormattedMessage id="identity-provider.entryId" values={{ openId: b.open_id }} />
                      </Typography.Text>
                    </div>
                  </div>
                </div>
              </List.Item>
            )}
          />
        </Card>
      )}
    </section>
  );
});

/** The section page: its own messages and readable text colours around the view. */
export default function IdentityProviderPage() {
  return (
    <>
      <IdentityProviderView />
    </>
  );
}
