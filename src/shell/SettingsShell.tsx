import { Button, Menu, Result, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { Suspense, useEffect, useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { isMenuEntryVisible, isPermitted } from '../core/access';
import { edition } from '../core/edition';
import type { Registry, SettingsSection } from '../core/plugin';
import { useStores } from '../core/stores/root';
import { Redirect } from '../core/ui/Redirect';
import { lazyLoaded } from '../core/ui/lazyLoaded';
import { AppLayout } from './AppLayout';
import { ErrorBoundary } from './errors/ErrorBoundary';
import { OrganizationNotice } from './OrganizationNotice';

/** Props of the settings frame. */
export interface SettingsShellProps {
  registry: Registry;
}

/** Sections the user may see: edition menu order ∩ registered sections ∩ menu rule ∩ section permission. */
export function permittedSections(registry: Registry, flags: Record<string, boolean>): SettingsSection[] {
  return edition.settingsMenu
    .filter((entry) => isMenuEntryVisible(entry, flags))
    .map((entry) => registry.section(entry.key))
    .filter((s): s is SettingsSection => !!s && isPermitted(s.permission, flags));
}

/** Whether the rest of the URL after `/users/settings/:key` is the section itself or one of its declared sub-paths. */
export function acceptsSubPath(section: Pick<SettingsSection, 'subPaths'>, rest: string | undefined): boolean {
  const sub = (rest ?? '').replace(/^\/+|\/+$/g, '');
  return !sub || (section.subPaths ?? []).includes(sub);
}

/**
 * Personal Settings: permitted sections in the sidebar, the chosen one on the right. Without a usable organisation
 * (none, or refused by its policies) the sections that need an app are gone and a notice says why.
 */
const SettingsShell = observer(function SettingsShell({ registry }: SettingsShellProps) {
  const { session } = useStores();
  const { sidebarKey, '*': rest } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const intl = useIntl();
  useEffect(() => {
    if (session.loading && !session.user && !session.failed && !session.signedOut) void session.load();
  }, [session]);
  const sections = session.user ? permittedSections(registry, session.access) : [];
  const section = sections.find((s) => s.key === sidebarKey);
  const Page = useMemo(() => (section ? lazyLoaded(section.load) : null), [section]);

  if (session.loading) return null;
  // A user who must change the password first goes to the sign-in page, whose sign-in leads to the change.
  if (session.signedOut || session.user?.must_change_password) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Redirect to={`${edition.paths.relogin}?next=${next}`} />;
  }
  if (session.failed) {
    return (
      <Result
        status="error"
        title={<FormattedMessage id="shell.settings.loadFailed" />}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            <FormattedMessage id="shell.settings.retry" />
          </Button>
        }
      />
    );
  }
  if (!section || !Page) {
    return sections.length ? <Redirect to={`/users/settings/${sections[0].key}`} /> : null;
  }
  // Only the sub-paths the section declares (e.g. `create`) reach its page; anything else goes back to the section.
  if (!acceptsSubPath(section, rest)) return <Redirect to={`/users/settings/${section.key}`} />;
  const menu = (
    <nav aria-labelledby="settings-title">
      <Typography.Title id="settings-title" level={2} style={{ padding: '16px 24px 8px', margin: 0, fontSize: 20 }}>
        <FormattedMessage id="shell.settings.title" />
      </Typography.Title>
      <Menu
        mode="inline"
        // The menu never shows collapsed (a collapsed sider hides it whole): no hidden tooltip per item, whose
        // popup machinery re-rendered every item once more as the page started.
        tooltip={false}
        selectedKeys={[section.key]}
        style={{ borderInlineEnd: 'none' }}
        items={sections.map((s) => ({
          key: s.key,
          label: <FormattedMessage id={s.messageId} />,
          'data-menu-key': s.key,
        }))}
        onClick={({ key }) => navigate(`/users/settings/${key}`)}
      />
    </nav>
  );
  return (
    <AppLayout sider={menu} siderLabel={intl.formatMessage({ id: 'shell.settings.title' })}>
      <OrganizationNotice />
      <ErrorBoundary>
        <Suspense fallback={null}>
          <Page />
        </Suspense>
      </ErrorBoundary>
    </AppLayout>
  );
});

export default SettingsShell;
