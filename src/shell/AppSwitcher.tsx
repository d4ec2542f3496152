import { AppstoreOutlined } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import { observer } from 'mobx-react-lite';
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

/** The suite's applications from the edition's list, each logo recoloured to the brand colour. */
export const AppSwitcher = observer(function AppSwitcher() {
  const { session } = useStores();
  const intl = useIntl();
  // The current organisation as the last session load knows it (it follows a switch without a reload).
  const org = session.user?.organization_id;
  const apps = (
    <nav aria-label={intl.formatMessage({ id: 'shell.header.apps' })}>
      <ul
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(3, 112px)',
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
              <span style={{ fontSize: 13 }}>{app.name[session.locale]}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
  return (
    <Popover content={apps} trigger="click" placement="bottomLeft">
      <Button type="text" icon={<AppstoreOutlined />} aria-label={intl.formatMessage({ id: 'shell.header.apps' })}>
        <span className="shell-hide-narrow">
          <FormattedMessage id="shell.header.apps" />
        </span>
      </Button>
    </Popover>
  );
});
