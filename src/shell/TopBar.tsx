import {
  EllipsisOutlined,
  GlobalOutlined,
  LogoutOutlined,
  QuestionCircleOutlined,
  SwapOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { observer } from 'mobx-react-lite';
import { Component, Suspense, useContext, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { SUPPORTED_LOCALES } from '../../schemas/locale';
import { edition, type Locale } from '../core/edition';
import { RegistryContext, type HeaderItem } from '../core/plugin';
import { useStores } from '../core/stores/root';
import { lazyLoaded } from '../core/ui/lazyLoaded';
import { AppSwitcher } from './AppSwitcher';
import { currentPath, logoutUrl, switchOrganizationUrl } from './links';

export { logoutUrl, switchOrganizationUrl } from './links';

/** One lazy component per header item, made once, so re-rendering the bar never remounts (or reloads) a control. */
const lazyItems = new WeakMap<HeaderItem, LazyExoticComponent<ComponentType>>();

function lazyItem(item: HeaderItem): LazyExoticComponent<ComponentType> {
  let component = lazyItems.get(item);
  if (!component) {
    component = lazyLoaded(item.load);
    lazyItems.set(item, component);
  }
  return component;
}

/** Leaves a control out when its chunk fails to load or it throws: the rest of the bar keeps working. */
class LeaveOutOnError extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** Renders a plugin's top-bar control once its chunk has loaded (nothing meanwhile). */
function HeaderItemSlot({ item }: { item: HeaderItem }) {
  const Item = lazyItem(item);
  return (
    <LeaveOutOnError>
      <Suspense fallback={null}>
        <Item />
      </Suspense>
    </LeaveOutOnError>
  );
}

/** Props of the top bar. */
export interface TopBarProps {
  /** The plugins' top-bar controls; defaults to those of the app's registry (tests pass their own). */
  headerItems?: readonly HeaderItem[];
}

/**
 * Top bar: brand, app switcher, current organisation (a link to change it), the plugins' controls (e.g. the message
 * bell) for a signed-in user, help centre, language and logout. On a narrow window (src/app/global.css) the
 * organisation link, help and language leave the bar for one "more" menu; the product name gives way with an
 * ellipsis (whole in its title).
 */
export const TopBar = observer(function TopBar({ headerItems: given }: TopBarProps) {
  const registry = useContext(RegistryContext);
  const headerItems = given ?? registry?.headerItems ?? [];
  const { session } = useStores();
  const intl = useIntl();
  // A path: the redirect rule follows paths on any deployment, absolute URLs only on its exact origin.
  const here = currentPath();
  const user = session.user;
  const product = edition.names.product[session.locale];
  const help = edition.helpLinks.helpCenter;
  const languages: NonNullable<MenuProps['items']> = SUPPORTED_LOCALES.map((l) => ({
    key: l,
    label: <FormattedMessage id={`shell.language.${l}`} />,
  }));
  const setLocale = (key: string) => {
    if ((SUPPORTED_LOCALES as readonly string[]).includes(key)) session.setLocale(key as Locale);
  };
  return (
    <header
      className="shell-top-bar"
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 'var(--shell-bar-gap, 8px)',
        height: 56,
        padding: '0 var(--shell-bar-padding, 16px)',
        borderBottom: '1px solid var(--ant-color-split)',
        background: 'var(--ant-color-bg-container)',
      }}
    >
      {/* The product name gives way (ellipsis) before anything else on a narrow window. */}
      <a
        href="/users/settings"
        title={product}
        style={{ display: 'flex', alignItems: 'center', gap: 8, color: 'inherit', minWidth: 0 }}
      >
        <img src={edition.brand.logo} alt="" width={28} height={28} style={{ flex: 'none' }} />
        <strong style={{ fontSize: 16, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {product}
        </strong>
      </a>
      {user && <AppSwitcher />}
      {user && session.organization && (
        <a
          href={switchOrganizationUrl(here)}
          data-testid="current-org"
          className="shell-wide-only"
          aria-label={intl.formatMessage({ id: 'shell.header.currentOrg' }, { name: session.organization.name })}
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 6,
            flex: 'none',
            maxWidth: 240,
            padding: '4px 8px',
            borderRadius: 6,
            color: 'var(--ant-color-text)',
          }}
        >
          <SwapOutlined aria-hidden />
          {/* On a narrow window only the icon stays; its label still names the organisation. */}
          <span
            className="shell-hide-narrow"
            style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {session.organization.name}
          </span>
        </a>
      )}
      <span style={{ flex: 1 }} />
      <div style={{ display: 'flex', alignItems: 'center', gap: 4, flex: 'none' }}>
        {user && headerItems.map((item) => <HeaderItemSlot key={item.key} item={item} />)}
        {help && (
          <Button
            type="text"
            className="shell-wide-only"
            icon={<QuestionCircleOutlined />}
            href={help}
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
            items: languages,
            onClick: ({ key }) => setLocale(key),
          }}
        >
          <Button
            type="text"
            className="shell-wide-only"
            icon={<GlobalOutlined />}
            aria-label={intl.formatMessage({ id: 'shell.header.language' })}
            data-testid="language-switch"
          >
            <span className="shell-hide-narrow">
              <FormattedMessage id={session.locale === 'zh_CN' ? 'shell.language.zh_CN' : 'shell.language.en_US'} />
            </span>
          </Button>
        </Dropdown>
        <Dropdown
          trigger={['click']}
          menu={{
            selectable: true,
            selectedKeys: [session.locale],
            items: [
              ...(help
                ? [
                    {
                      key: 'help',
                      icon: <QuestionCircleOutlined />,
                      label: (
                        <a href={help} target="_blank" rel="noopener noreferrer">
                          {intl.formatMessage({ id: 'shell.header.help' })}
                        </a>
                      ),
                    },
                  ]
                : []),
              {
                key: 'language',
                type: 'group',
                label: intl.formatMessage({ id: 'shell.header.language' }),
                children: languages,
              },
            ],
            onClick: ({ key }) => setLocale(key),
          }}
        >
          <Button
            type="text"
            className="shell-narrow-only"
            icon={<EllipsisOutlined />}
            aria-label={intl.formatMessage({ id: 'shell.header.more' })}
            data-testid="top-bar-more"
          />
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
      </div>
    </header>
  );
});
