import { Button, Modal } from 'antd';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useLocation, useNavigate } from 'react-router-dom';
import { useInBrowser } from '../../../src/core/ui/BrowserState';
import { SECTION_PATH, TokensPanel } from './TokensPanel';

/**
 * Legacy ("v1") screen: the same panel in a modal titled personal access token; closing returns to the current path.
 * The modal opens once the app has the page: a page the service rendered holds no modal (it lives at the end of the
 * body, outside what the service renders), so the browser's first render holds none either.
 */
export function LegacyTokensModal() {
  const [open, setOpen] = useState(true);
  const inBrowser = useInBrowser();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <div style={{ padding: 24 }}>
      {!open && (
        <Button type="primary" onClick={() => setOpen(true)}>
          <FormattedMessage id="access-tokens.legacy.title" />
        </Button>
      )}
      <Modal
        open={open && inBrowser}
        width={1000}
        footer={null}
        title={<FormattedMessage id="access-tokens.legacy.title" />}
        onCancel={() => {
          setOpen(false);
          navigate(pathname.startsWith(SECTION_PATH) ? SECTION_PATH : pathname, { replace: true });
        }}
      >
        {open && <TokensPanel showTitle={false} />}
      </Modal>
    </div>
  );
}
