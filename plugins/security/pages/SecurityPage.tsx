import { WarningOutlined } from '@ant-design/icons';
import { Button, Divider, message, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { useStore, useStores } from '../../../src/core/stores/root';
import { lazyOverlay } from '../../../src/core/ui/lazyOverlay';
import { CredentialHealthSection } from '../components/CredentialHealthSection';
import { HistorySection } from '../components/HistorySection';
import { SessionsSection } from '../components/SessionsSection';
import { TrustedBrowsersSection } from '../components/TrustedBrowsersSection';
import { TwoFactorSection } from '../components/TwoFactorSection';
import { useNow } from '../../../src/core/ui/useNow';

/** The "this wasn't me" dialog, loaded when it first opens (src/core/ui/lazyOverlay.tsx). */
const NotMeDialog = lazyOverlay(() =>
  import(/* webpackChunkName: "plugin-security-dialogs" */ '../components/NotMeDialog').then((m) => m.NotMeDialog),
);

/** The query that opens "this wasn't me" with the page (the inbox's messages about sensitive actions link to it). */
export const NOT_ME_PARAM = 'not-me';

/** How often "last active 3 minutes ago" moves on while the page is open. */
const TICK_MS = 30_000;

/** Props of the security view. */
export interface SecurityViewProps {
  /** The clock relative times are measured against (default the real one). */
  clock?: () => number;
}

/**
 * The account's security page: two-factor authentication, where it is signed in (and signing out the others), the
 * health of its credentials (and revoking the stale ones), the browsers the lockout trusts, the account's history, and
 * "this wasn't me" (also opened by `?not-me=1`).
 */
export const SecurityView = observer(function SecurityView({ clock = Date.now }: SecurityViewProps) {
  const security = useStore('security');
  const { session } = useStores();
  const [toast, toastHolder] = message.useMessage();
  const now = useNow(clock, TICK_MS);
  const [params, setParams] = useSearchParams();
  // `seq` changes at each opening so the dialog mounts afresh (no stale result from the last time).
  const [dialog, setDialog] = useState(() => ({ open: params.get(NOT_ME_PARAM) === '1', seq: 0 }));
  const openDialog = () => setDialog((d) => ({ open: true, seq: d.seq + 1 }));
  const closeDialog = () => {
    setDialog((d) => ({ ...d, open: false }));
    // A reload after closing does not open it again.
    if (params.has(NOT_ME_PARAM))
      setParams(
        (p) => {
          p.delete(NOT_ME_PARAM);
          return p;
        },
        { replace: true },
      );
  };

  useEffect(() => {
    void security.load();
  }, [security]);

  return (
    <section aria-labelledby="security-title" data-testid="security" style={{ minWidth: 0 }}>
      {toastHolder}
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Typography.Title id="security-title" level={1} style={{ fontSize: 20, margin: 0, flex: '1 1 auto' }}>
          <FormattedMessage id="security.sidebar.title" />
        </Typography.Title>
        <Button danger icon={<WarningOutlined />} onClick={openDialog} data-testid="security-not-me">
          <FormattedMessage id="security.notMe.button" />
        </Button>
      </div>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        <FormattedMessage id="security.page.description" />
      </Typography.Paragraph>
      <TwoFactorSection
        store={security.twoFactor}
        sessions={security.sessions}
        now={now}
        locale={session.locale}
        toast={toast}
      />
      <Divider />
      <SessionsSection store={security.sessions} now={now} locale={session.locale} toast={toast} />
      <Divider />
      <CredentialHealthSection store={security.health} now={now} locale={session.locale} toast={toast} />
      <Divider />
      <TrustedBrowsersSection store={security.browsers} toast={toast} />
      <Divider />
      <HistorySection store={security.history} toast={toast} />
      <NotMeDialog key={dialog.seq} open={dialog.open} store={security} onClose={closeDialog} />
    </section>
  );
});

/** The security section page. */
export default function SecurityPage() {
  return <SecurityView />;
}
