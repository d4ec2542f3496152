import { GlobalOutlined } from '@ant-design/icons';
import { Button, Card, Dropdown, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { edition, type Locale } from '../edition';
import { useStores } from '../stores/root';

/** Props of the branded card. */
export interface BrandCardProps {
  /** Widest the card grows on a large window; it takes the full width of a narrow one. */
  maxWidth?: number;
  children: ReactNode;
}

/**
 * The frame of the pages shown before sign-in (sign-in, password recovery): a centred card headed by the edition's
 * logo and product name, with the language switch.
 */
export const BrandCard = observer(function BrandCard({ maxWidth = 400, children }: BrandCardProps) {
  const { session } = useStores();
  const intl = useIntl();
  return (
    // The padding is inside the window's height: a card that fits leaves nothing to scroll (a phone would show, and
    // a browser fade out, a scroll bar for 32 px).
    <main
      style={{
        minHeight: '100vh',
        boxSizing: 'border-box',
        display: 'grid',
        placeItems: 'center',
        padding: 16,
        background: 'var(--ant-color-bg-layout)',
      }}
    >
      <Card style={{ width: '100%', maxWidth }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 16 }}>
          <img src={edition.brand.logo} alt="" width={32} height={32} />
          <Typography.Title level={1} style={{ margin: 0, fontSize: 20, flex: 1 }}>
            {edition.names.system[session.locale]}
          </Typography.Title>
          <Dropdown
            trigger={['click']}
            menu={{
              selectedKeys: [session.locale],
              items: [
                { key: 'zh_CN', label: <FormattedMessage id="core.language.zh_CN" /> },
                { key: 'en_US', label: <FormattedMessage id="core.language.en_US" /> },
              ],
              onClick: ({ key }) => session.setLocale(key as Locale),
            }}
          >
            <Button
              type="text"
              icon={<GlobalOutlined />}
              aria-label={intl.formatMessage({ id: 'core.language.switch' })}
            />
          </Dropdown>
        </div>
        {children}
      </Card>
    </main>
  );
});
