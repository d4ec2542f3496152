import { Button, Modal } from 'antd';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useLocation, useNavigate } from 'react-router-dom';
import { SECTION_PATH, TokensPanel } from './TokensPanel';

/** Legacy ("v1") screen: the same panel in a modal titled personal access token; closing returns to the current path. */
export function LegacyTokensModal() {
  const [open, setOpen] = useState(true);
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
        open={open}
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
