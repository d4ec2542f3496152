import { Alert, Button } from 'antd';
import { observer } from 'mobx-react-lite';
import { useLocation } from 'react-router-dom';
import { FormattedMessage } from 'react-intl';
import { SECURITY_PAGE } from '../core/organization';
import { useStores } from '../core/stores/root';
import { LocalTime } from '../core/ui/LocalTime';
import { ERROR_PAGES } from './errors/ErrorPage';
import { currentPath, switchOrganizationUrl } from './links';

/**
 * The session's organisation notice above the settings (no organisation, IP whitelist, licence or order expired, a
 * second factor required, lost membership): what happened and the way out (the security page for a missing second
 * factor, the chooser), while personal sections keep working below. While an organisation's grace for the second
 * factor lasts, a warning with the day it starts refusing.
 */
export const OrganizationNotice = observer(function OrganizationNotice() {
  const { session } = useStores();
  const kind = session.organizationNotice;
  const org = session.organization;
  // On the security page itself the way to enrol is the section below: a button leading here would do nothing.
  const onSecurityPage = useLocation().pathname.replace(/\/+$/, '') === SECURITY_PAGE;
  const enrol = onSecurityPage ? null : (
    <Button size="small" type="primary" href={SECURITY_PAGE} data-testid="org-notice-second-factor">
      <FormattedMessage id="shell.org.secondFactor.setUp" />
    </Button>
  );
  if (!kind) {
    if (!org?.second_factor_deadline) return null;
    // In the browser's time zone; a page the service rendered holds it in UTC until hydrated (no mismatch).
    const values = { org: org.name, deadline: <LocalTime key="deadline" value={org.second_factor_deadline} /> };
    return (
      <Alert
        type="warning"
        showIcon
        role="status"
        data-testid="org-second-factor-grace"
        style={{ marginBottom: 16 }}
        title={<FormattedMessage id="shell.org.secondFactor.graceTitle" values={values} />}
        description={
          <>
            <FormattedMessage id="shell.org.secondFactor.graceDescription" values={values} />
            {enrol && <div style={{ marginTop: 8 }}>{enrol}</div>}
          </>
        }
      />
    );
  }
  const page = ERROR_PAGES[kind];
  const here = currentPath();
  const named = kind === 'second-factor-required' && session.organizationNoticeName;
  return (
    <Alert
      type={kind === 'no-org' ? 'info' : 'warning'}
      showIcon
      role="status"
      data-testid="org-notice"
      data-notice={kind}
      style={{ marginBottom: 16 }}
      title={<FormattedMessage id={page.title} />}
      description={
        // The way out sits under the text, so a narrow window keeps the text readable.
        <>
          {named ? (
            <FormattedMessage id="shell.org.secondFactor.named" values={{ org: named }} />
          ) : (
            <FormattedMessage id={page.description} />
          )}
          <div style={{ marginTop: 8, display: 'flex', flexWrap: 'wrap', gap: 8 }}>
            {kind === 'second-factor-required' && enrol}
            <Button size="small" href={switchOrganizationUrl(here)}>
              <FormattedMessage id="shell.org.choose" />
            </Button>
          </div>
        </>
      }
    />
  );
});
