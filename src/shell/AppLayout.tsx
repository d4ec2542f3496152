import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Drawer, Layout } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation } from 'react-router-dom';
import { edition } from '../core/edition';
import { useStores } from '../core/stores/root';
import { useInBrowser, useNarrowLayout } from '../core/ui/BrowserState';
import { TopBar } from './TopBar';
import { clampSiderWidth, SIDER_MIN_WIDTH, useSiderState } from './useSiderState';

/** Props of the generic frame. */
export interface AppLayoutProps {
  /** Side bar content (e.g. the settings menu); without it the frame has no side bar. */
  sider?: ReactNode;
  /** What the side bar is (e.g. "Personal settings"): the visible label of its button and the drawer's name. */
  siderLabel?: string;
  children: ReactNode;
}

/**
 * Header, side bar, body, content and footer. At desktop widths the side bar is a column that toggles, auto-closes
 * below 1280 px and resizes; below the layout breakpoint it is a drawer over the content (antd's Drawer: focus kept
 * inside, Escape closes, focus goes back to the button), which also closes on navigation.
 */
export function AppLayout({ sider, siderLabel, children }: AppLayoutProps) {
  const { session } = useStores();
  const intl = useIntl();
  const s = useSiderState();
  const narrow = useNarrowLayout();
  const inBrowser = useInBrowser();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  // A chosen section (or any other navigation) closes the drawer, and so does a window grown past the breakpoint.
  useEffect(() => setDrawerOpen(false), [pathname, narrow]);
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <TopBar />
      <Layout hasSider={!!sider && !narrow}>
        {sider && narrow && (
          <Drawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            placement="left"
            size={280}
            closable={{ placement: 'end' }}
            aria-label={siderLabel}
            data-testid="shell-sider-drawer"
            // In the page rather than at the end of the body: antd's focus lock brings the focus back when it lands
            // outside the drawer, which Tab past a drawer at the very end would not do (it leaves the document). An
            // in-page drawer does not lock by default: `trap` asks for it.
            getContainer={false}
            focusable={{ trap: true }}
            rootStyle={{ position: 'fixed' }}
            styles={{ body: { padding: 0 }, header: { padding: '8px 12px', borderBottom: 'none' } }}
          >
            {sider}
          </Drawer>
        )}
        {sider && !narrow && (
          <Layout.Sider
            theme="light"
            width={s.width}
            collapsed={s.collapsed}
            collapsedWidth={0}
            trigger={null}
            data-testid="shell-sider"
            data-collapsed={s.collapsed}
            // Hidden by CSS where the app will hide it (src/app/global.css): a page the service rendered, which
            // knows no window width, paints what the app keeps after hydration.
            className={s.auto ? 'shell-sider shell-sider-auto' : 'shell-sider'}
            style={{ borderRight: '1px solid var(--ant-color-split)', position: 'relative' }}
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
          <Layout.Content
            style={{
              padding: 'var(--shell-content-padding, 16px 24px)',
              background: 'var(--ant-color-bg-container)',
              minWidth: 0,
            }}
          >
            {/* Both toggles while the page may be one the service rendered (it knows no window width): CSS shows
                the one the app keeps (src/app/global.css), so the phone's button is there from the first paint. */}
            {sider && (narrow || !inBrowser) && (
              <Button
                className="shell-drawer-toggle"
                icon={<MenuOutlined aria-hidden />}
                onClick={() => setDrawerOpen(true)}
                aria-expanded={drawerOpen}
                aria-haspopup="dialog"
                data-testid="sider-drawer-toggle"
                style={{ marginBottom: 12 }}
              >
                {siderLabel ?? intl.formatMessage({ id: 'shell.sider.expand' })}
              </Button>
            )}
            {sider && (!narrow || !inBrowser) && (
              <Button
                className="shell-sider-toggle"
                type="text"
                onClick={s.toggle}
                icon={s.collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                aria-label={intl.formatMessage({ id: s.collapsed ? 'shell.sider.expand' : 'shell.sider.collapse' })}
                aria-expanded={!s.collapsed}
                data-testid="sider-toggle"
                // As tall as the drawer's button, which takes its place on a narrow window: nothing moves.
                style={{ marginBottom: 12 }}
              />
            )}
            {children}
          </Layout.Content>
          <Layout.Footer
            style={{ textAlign: 'center', color: 'var(--ant-color-text-secondary)', padding: '12px 24px' }}
          >
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
