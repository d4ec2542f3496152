import { GlobalOutlined, LogoutOutlined, QuestionCircleOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, Space } from 'antd';
import { observer } from 'mobx-react-lite';
import { FormattedMessage, useIntl } from 'react-intl';
import { edition, type Locale } from '../core/edition';
import { useStores } from '../core/stores/root';
import { AppSwitcher } from './AppSwitcher';

const LOCALES: Locale[] = ['zh_CN', 'en_US'];

/** Where "change organisation" goes: the switch page, coming back to the current address. */
export function switchOrganizationUrl(current: string): string {
  return `/users/switch/organization?nextUrl=${encodeURIComponent(current)}`;
}

/** The account service's logout address with the current page as next URL. */
export function logoutUrl(current: string): string {
  return `/users/logout?next=${encodeURIComponent(current)}`;
}

/** Top bar: brand, app switcher, help centre, language, organisation change and logout. */
export const TopBar = observer(function TopBar() {
  const { session } = useStores();
  const intl = useIntl();
  const here = typeof window === 'undefined' ? '/' : window.location.href;
  const user = session.user;
  return (
    <header
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        height: 56,
        padding: '0 16px',
        borderBottom: '1px solid rgba(5, 5, 5, 0.06)',
        background: '#fff',
      }}
    >
      <a href="/users/settings" style={{ display: 'flex', alignItems: 'center', gap: 8, color: 'inherit' }}>
        <img src={edition.brand.logo} alt="" width={28} height={28} />
        <strong style={{ fontSize: 16, whiteSpace: 'nowrap' }}>{edition.names.product[session.locale]}</strong>
      </a>
      {user && <AppSwitcher />}
      <span style={{ flex: 1 }} />
      <Space size={4} wrap={false}>
        {edition.helpLinks.helpCenter && (
          <Button
            type="text"
            icon={<QuestionCircleOutlined />}
            href={edition.helpLinks.helpCenter}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={intl.formatMessage({ id: 'shell.header.help' })}
          >
            <span className="shell-hide-narrow">
              <FormattedMessage id="shell.header.help" />
            </span>
          </Button>
        )}
        <Dropdown
          trigger={['click']}
          menu={{
            selectable: true,
            selectedKeys: [session.locale],
            items: LOCALES.map((l) => ({ key: l, label: <FormattedMessage id={`shell.language.${l}`} /> })),
            onClick: ({ key }) => session.setLocale(key as Locale),
          }}
        >
          <Button
            type="text"
            icon={<GlobalOutlined />}
            aria-label={intl.formatMessage({ id: 'shell.header.language' })}
            data-testid="language-switch"
          >
            <span className="shell-hide-narrow">
              <FormattedMessage id={session.locale === 'zh_CN' ? 'shell.language.zh_CN' : 'shell.language.en_US'} />
            </span>
          </Button>
        </Dropdown>
        {user && (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                {
                  key: 'org',
                  icon: <SwapOutlined />,
                  label: (
                    <a href={switchOrganizationUrl(here)}>{intl.formatMessage({ id: 'shell.header.changeOrg' })}</a>
                  ),
                },
                {
                  key: 'logout',
                  icon: <LogoutOutlined />,
                  label: <a href={logoutUrl(here)}>{intl.formatMessage({ id: 'shell.header.logout' })}</a>,
                },
              ],
            }}
          >
            <Button type="text" aria-label={intl.formatMessage({ id: 'shell.header.account' })}>
              <Avatar size={24} src={user.avatar || undefined} icon={<UserOutlined />} alt="" />
              <span className="shell-hide-narrow">{user.name || user.username}</span>
            </Button>
          </Dropdown>
        )}
      </Space>
    </header>
  );
});
