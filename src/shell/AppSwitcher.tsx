import { AppstoreOutlined } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import { observer } from 'mobx-react-lite';
import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { edition } from '../core/edition';
import { useStores } from '../core/stores/root';

/**
 * Where a tile leads: always through the application entry guard of the current organisation, which checks access
 * and then redirects to the app's address (the edition's `url`, served as `raw_url`); without an organisation,
 * to the chooser first.
 */
export function appTileHref(appKey: string, organizationId: string | null | undefined): string {
  if (!organizationId) return '/users/switch/organization';
  return `/users/switch/${encodeURIComponent(organizationId)}/app-entry?app=${encodeURIComponent(appKey)}`;
}

/** Widest the tile grid gets: three columns of tiles. */
const GRID_MAX_WIDTH = 344;

/**
 * The suite's applications from the edition's list, each logo recoloured to the brand colour, in as many columns as
 * the window has room for (three at most). Opened by keyboard, the focus goes to the first tile; Escape closes and
 * gives it back to the button.
 */
export const AppSwitcher = observer(function AppSwitcher() {
  const { session } = useStores();
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const grid = useRef<HTMLUListElement>(null);
  // The current organisation as the last session load knows it (it follows a switch without a reload).
  const org = session.user?.organization_id;
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const apps = (
    <nav
      aria-label={intl.formatMessage({ id: 'shell.header.apps' })}
      data-testid="app-switcher"
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <ul
        ref={grid}
        style={{
          display: 'grid',
          // Tiles of 104 px or more; the popover leaves 16 px of window on each side (antd keeps it inside the window).
          width: `min(${GRID_MAX_WIDTH}px, calc(100vw - 56px))`,
          gridTemplateColumns: 'repeat(auto-fill, minmax(104px, 1fr))',
          gap: 4,
          listStyle: 'none',
          margin: 0,
          padding: 0,
        }}
      >
        {edition.appSwitcher.map((app) => (
          <li key={app.key}>
            <a
              href={appTileHref(app.key, org)}
              data-app={app.key}
              style={{
                display: 'flex',
                alignItems: 'center',
                gap: 8,
                padding: '8px',
                borderRadius: 6,
                color: 'inherit',
              }}
            >
              <span
                aria-hidden
                style={{
                  width: 20,
                  height: 20,
                  flex: 'none',
                  backgroundColor: edition.brand.color,
                  maskImage: `url(${app.logo})`,
                  WebkitMaskImage: `url(${app.logo})`,
                  maskSize: 'contain',
                  WebkitMaskSize: 'contain',
                  maskRepeat: 'no-repeat',
                  WebkitMaskRepeat: 'no-repeat',
                }}
              />
              <span style={{ fontSize: 13, minWidth: 0, overflowWrap: 'anywhere' }}>{app.name[session.locale]}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
  return (
    <Popover
      content={apps}
      trigger="click"
      placement="bottomLeft"
      // Slid sideways into the window when the button sits too far right for the tiles (a phone).
      align={{ overflow: { adjustX: true, adjustY: true, shiftX: true } }}
      open={open}
      onOpenChange={setOpen}
      // Opened, the first tile takes the focus, so the keyboard is where the tiles are (the popover sits at the end
      // of the page).
      afterOpenChange={(visible) => {
        if (visible) grid.current?.querySelector('a')?.focus();
      }}
    >
      <Button
        ref={button}
        type="text"
        icon={<AppstoreOutlined />}
        aria-label={intl.formatMessage({ id: 'shell.header.apps' })}
        aria-expanded={open}
        data-testid="app-switcher-button"
      >
        <span className="shell-hide-narrow">
          <FormattedMessage id="shell.header.apps" />
        </span>
      </Button>
    </Popover>
  );
});
