import { CloudOutlined, DingtalkOutlined, MessageOutlined, WechatWorkOutlined } from '@ant-design/icons';
import { Button, Divider } from 'antd';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import type { OAuthProvider } from '../contract';
import { oauthStartPath } from '../../../schemas/sign-in-paths';
import { PROVIDER_NAME_IDS } from './sign-in-labels';

/** The providers' icons (Lark has none in the icon set: a neutral one). */
const ICONS: Readonly<Record<OAuthProvider, ReactNode>> = {
  dingtalk: <DingtalkOutlined aria-hidden />,
  lark: <MessageOutlined aria-hidden />,
  wecom: <WechatWorkOutlined aria-hidden />,
};

/** Props of the other sign-in methods. */
export interface OtherMethodsProps {
  /** The third-party providers the instance enabled (page config `signIn.oauth`). */
  providers: readonly OAuthProvider[];
  /** The edition's "sign in with the cloud provider account" address, if it has one. */
  cloudProviderUrl?: string;
  /** The page's `next`, handed on to the third-party sign-in. */
  next?: string | null;
}

/**
 * 'Other sign-in methods': one plain link per third-party provider (the service redirects to the provider) and the
 * edition's cloud-provider sign-in; nothing when there is neither.
 */
export function OtherMethods({ providers, cloudProviderUrl, next }: OtherMethodsProps) {
  if (!providers.length && !cloudProviderUrl) return null;
  return (
    <nav aria-labelledby="login-other-methods">
      <Divider plain style={{ marginBlock: 20 }}>
        <span id="login-other-methods">
          <FormattedMessage id="login.otherMethods" />
        </span>
      </Divider>
      {providers.length > 0 && (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'center' }}>
          {providers.map((p) => (
            <Button key={p} href={oauthStartPath(p, next)} icon={ICONS[p]} data-testid={`oauth-${p}`}>
              <FormattedMessage id={PROVIDER_NAME_IDS[p]} />
            </Button>
          ))}
        </div>
      )}
      {cloudProviderUrl && (
        <div style={{ marginTop: providers.length ? 12 : 0, textAlign: 'center' }}>
          <a href={cloudProviderUrl} data-testid="cloud-provider">
            <CloudOutlined aria-hidden style={{ marginInlineEnd: 6 }} />
            <FormattedMessage id="login.cloudProvider" />
          </a>
        </div>
      )}
    </nav>
  );
}
