import { Layout, Menu, Spin, Typography } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { FormattedMessage } from 'react-intl';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { edition } from '../core/edition';
import type { Registry } from '../core/plugin';

/** Props of the settings frame. */
export interface SettingsShellProps {
  registry: Registry;
}

/** Personal Settings: sidebar from the registry in the edition's menu order, section page on the right. */
export default function SettingsShell({ registry }: SettingsShellProps) {
  const { sidebarKey } = useParams();
  const navigate = useNavigate();
  const entries = edition.settingsMenu.filter((e) => registry.section(e.key));
  const section = entries.some((e) => e.key === sidebarKey) ? registry.section(sidebarKey!) : undefined;
  const Page = useMemo(() => (section ? lazy(section.load) : null), [section]);
  if (!section || !Page) {
    return entries.length ? <Navigate to={`/users/settings/${entries[0].key}`} replace /> : null;
  }
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider theme="light" width={220}>
        <Typography.Title level={4} style={{ padding: '16px 24px', margin: 0 }}>
          <FormattedMessage id="shell.settings.title" />
        </Typography.Title>
        <Menu
          mode="inline"
          selectedKeys={[section.key]}
          items={entries.map((e) => ({
            key: e.key,
            label: <FormattedMessage id={registry.section(e.key)!.messageId} />,
          }))}
          onClick={({ key }) => navigate(`/users/settings/${key}`)}
        />
      </Layout.Sider>
      <Layout.Content style={{ padding: 24 }}>
        <Suspense fallback={<Spin />}>
          <Page />
        </Suspense>
      </Layout.Content>
    </Layout>
  );
}
