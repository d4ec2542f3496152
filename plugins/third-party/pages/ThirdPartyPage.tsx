import { ApiOutlined, DingtalkOutlined, MessageOutlined, WechatWorkOutlined } from '@ant-design/icons';
import { Avatar, Badge, Button, Card, List, Result, Skeleton, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useStore } from '../../../src/core/stores/root';

/** The fixed entries: credential key (the identity's `credential`), title message and icon. */
const ENTRIES: Array<{ credential: string; titleId: string; icon: ReactNode; color: string }> = [
  { credential: 'dingtalk', titleId: 'third-party.entry.dingtalk', icon: <DingtalkOutlined />, color: '#1677ff' },
  { credential: 'feishu', titleId: 'third-party.entry.feishu', icon: <MessageOutlined />, color: '#00b6a3' },
  { credential: 'wecom', titleId: 'third-party.entry.wecom', icon: <WechatWorkOutlined />, color: '#1a73e8' },
  { credential: 'api', titleId: 'third-party.entry.api', icon: <ApiOutlined />, color: '#595959' },
];

/**
 * Third-party bindings: DingTalk, Feishu (Lark: the `lark` sign-in binds as `feishu`), WeCom and API synchronisation,
 * each with its synchronised account.
 */
const ThirdPartyView = observer(function ThirdPartyView() {
  const thirdParty = useStore('thirdParty');

  useEffect(() => {
    void thirdParty.load();
  }, [thirdParty]);

  return (
    <section aria-labelledby="third-party-title">
      <Typography.Title id="third-party-title" level={1} style={{ fontSize: 20, marginTop: 0 }}>
        <FormattedMessage id="third-party.sidebar.title" />
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        <FormattedMessage id="third-party.page.description" />
      </Typography.Paragraph>
      {thirdParty.loading ? (
        <Skeleton active avatar paragraph={{ rows: 3 }} />
      ) : thirdParty.failed ? (
        <Result
          status="error"
          title={<FormattedMessage id="third-party.loadFailed" />}
          extra={
            <Button type="primary" onClick={() => void thirdParty.load()}>
              <FormattedMessage id="third-party.retry" />
            </Button>
          }
        />
      ) : (
        <Card styles={{ body: { padding: '0 24px' } }} style={{ maxWidth: 720 }}>
          <List
            itemLayout="horizontal"
            dataSource={ENTRIES}
            renderItem={(entry) => {
              const bound = thirdParty.credentials[entry.credential];
              return (
                <List.Item data-testid={`third-party-${entry.credential}`}>
                  <div style={{ display: 'flex', alignItems: 'center', gap: 16, minWidth: 0 }}>
                    <Avatar style={{ background: entry.color, flex: 'none' }} icon={entry.icon} aria-hidden />
                    <div style={{ minWidth: 0 }}>
                      <Typography.Text strong>
                        <FormattedMessage id={entry.titleId} />
                      </Typography.Text>
                      <div>
                        <Typography.Text type="secondary" style={{ wordBreak: 'break-all' }}>
                          {bound ? (
                            <FormattedMessage id="third-party.synchronized" values={{ openId: bound.open_id }} />
                          ) : (
                            <FormattedMessage id="third-party.notSynchronized" />
                          )}
                        </Typography.Text>
                      </div>
                    </div>
                  </div>
                  <Badge
                    status={bound ? 'success' : 'default'}
                    text={<FormattedMessage id={bound ? 'third-party.status.bound' : 'third-party.status.unbound'} />}
                    style={{ flex: 'none' }}
                  />
                </List.Item>
              );
            }}
          />
        </Card>
      )}
    </section>
  );
});

/** The section page: its own messages and readable text colours around the view. */
export default function ThirdPartyPage() {
  return (
    <>
      <ThirdPartyView />
    </>
  );
}
