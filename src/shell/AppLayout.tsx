import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Layout } from 'antd';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { edition } from '../core/edition';
import { useStores } from '../core/stores/root';
import { TopBar } from './TopBar';
import { clampSiderWidth, SIDER_MIN_WIDTH, useSiderState } from './useSiderState';

/** Props of the generic frame. */
export interface AppLayoutProps {
  /** Side bar content (e.g. the settings menu); without it the frame has no side bar. */
  sider?: ReactNode;
  children: ReactNode;
}

/** Header, side bar, body, content and footer; the side bar toggles, auto-closes below 1280 px and resizes. */
export function AppLayout({ sider, children }: AppLayoutProps) {
  const { session } = useStores();
  const intl = useIntl();
  const s = useSiderState();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <TopBar />
      <Layout hasSider={!!sider}>
        {sider && (
          <Layout.Sider
            theme="light"
            width={s.width}
            collapsed={s.collapsed}
            collapsedWidth={0}
            trigger={null}
            data-testid="shell-sider"
            data-collapsed={s.collapsed}
            style={{ borderRight: '1px solid rgba(5, 5, 5, 0.06)', position: 'relative' }}
          >
            {sider}
            {!s.collapsed && (
              <div
                role="separator"
                aria-orientation="vertical"
                aria-label={intl.formatMessage({ id: 'shell.sider.resize' })}
                aria-valuemin={SIDER_MIN_WIDTH}
                aria-valuenow={s.width}
                tabIndex={0}
                onPointerDown={(e) => s.startDrag(e.clientX)}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowLeft') s.setWidth(clampSiderWidth(s.width - 16));
                  if (e.key === 'ArrowRight') s.setWidth(clampSiderWidth(s.width + 16));
                }}
                style={{ position: 'absolute', top: 0, right: -3, width: 6, height: '100%', cursor: 'col-resize' }}
              />
            )}
          </Layout.Sider>
        )}
        <Layout>
          <Layout.Content style={{ padding: '16px 24px', background: '#fff', minWidth: 0 }}>
            {sider && (
              <Button
                type="text"
                size="small"
                onClick={s.toggle}
                icon={s.collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                aria-label={intl.formatMessage({ id: s.collapsed ? 'shell.sider.expand' : 'shell.sider.collapse' })}
                aria-expanded={!s.collapsed}
                data-testid="sider-toggle"
                style={{ marginBottom: 8 }}
              />
            )}
            {children}
          </Layout.Content>
          <Layout.Footer style={{ textAlign: 'center', color: 'rgba(0, 0, 0, 0.65)', padding: '12px 24px' }}>
            <FormattedMessage
              id="shell.footer.copyright"
              values={{ year: new Date().getFullYear(), product: edition.names.product[session.locale] }}
            />
          </Layout.Footer>
        </Layout>
      </Layout>
    </Layout>
  );
}
