import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Typography } from 'antd';
import type { message as antdMessage } from 'antd';

type MessageInstance = ReturnType<typeof antdMessage.useMessage>[0];
import { observer } from 'mobx-react-lite';
import { FormattedMessage, useIntl } from 'react-intl';
import { copyText } from '../../../src/core/clipboard';
import { useStores } from '../../../src/core/stores/root';
import { LazyCredentialSnippets } from '../../../src/core/ui/LazyCredentialSnippets';
import type { AccessTokensStore } from '../store';

/** Props of the one-time display. */
export interface TokenCreatedAlertProps {
  store: AccessTokensStore;
  message: MessageInstance;
}

/** The new token's value, shown once with the hint to save it and ready-to-paste snippets; copying it confirms and hides it. */
export const TokenCreatedAlert = observer(function TokenCreatedAlert({ store, message }: TokenCreatedAlertProps) {
  const intl = useIntl();
  const { session } = useStores();
  const token = store.visibleToken;
  if (!token) return null;
  const copy = async () => {
    if (await copyText(token)) {
      void message.success(intl.formatMessage({ id: 'access-tokens.created.copied' }));
      store.tokenCopied();
    } else void message.error(intl.formatMessage({ id: 'access-tokens.created.copyFailed' }));
  };
  const alert = (
    <Alert
      type="success"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="token-created"
      title={<FormattedMessage id="access-tokens.created.title" />}
      description={
        <Space orientation="vertical" style={{ width: '100%' }}>
          <FormattedMessage id="access-tokens.created.hint" />
          <Space.Compact style={{ width: '100%' }}>
            <Typography.Text
              code
              data-testid="token-value"
              style={{
                flex: 1,
                padding: '4px 8px',
                margin: 0,
                wordBreak: 'break-all',
                display: 'flex',
                alignItems: 'center',
              }}
            >
              {token}
            </Typography.Text>
            <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy()} data-testid="token-copy">
              <FormattedMessage id="access-tokens.created.copy" />
            </Button>
          </Space.Compact>
        </Space>
      }
    />
  );
  return (
    <>
      {alert}
      {/* Ready to paste below it, full width: git over HTTPS and the open API on the edition's hosts (code loads now). */}
      <div style={{ marginBottom: 16 }}>
        <LazyCredentialSnippets credential="token" secret={token} username={session.user?.username ?? ''} />
      </div>
    </>
  );
});
