import { Button } from 'antd';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CredentialKind } from '../../../schemas/credential-kinds';
import { LastUsed, type LastUsedProps } from './LastUsed';
import { LazyCredentialUsesDrawer } from './LazyCredentialUsesDrawer';

/** Props of a list's "last used" cell. */
export interface CredentialLastUseProps extends LastUsedProps {
  /** Which kind of credential. */
  kind: CredentialKind;
  /** The credential's id in its slice. */
  id: string;
  /** Its name as its owner knows it (the link's accessible name and the timeline's title). */
  name: string;
}

/**
 * A credential list's "last used" cell: the last use ("3 minutes ago · 203.0.113.5", LastUsed) and a "Usage" link
 * that opens the credential's timeline (its drawer's code loads on the first opening).
 */
export function CredentialLastUse({ kind, id, name, ...line }: CredentialLastUseProps) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  return (
    <div style={{ display: 'grid', justifyItems: 'start', gap: 2 }}>
      <span style={{ whiteSpace: 'nowrap' }}>
        <LastUsed {...line} />
      </span>
      <Button
        type="link"
        size="small"
        style={{ paddingInline: 0, height: 'auto' }}
        aria-label={intl.formatMessage({ id: 'core.lastUse.openNamed' }, { name })}
        onClick={() => setOpen(true)}
      >
        <FormattedMessage id="core.lastUse.open" />
      </Button>
      <LazyCredentialUsesDrawer open={open} onClose={() => setOpen(false)} kind={kind} id={id} name={name} />
    </div>
  );
}
