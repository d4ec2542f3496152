import { Alert, Button } from 'antd';
import { observer } from 'mobx-react-lite';
import { FormattedMessage } from 'react-intl';
import { useStores } from '../core/stores/root';
import { ERROR_PAGES } from './errors/ErrorPage';
import { currentPath, switchOrganizationUrl } from './links';

/**
 * The session's organisation notice above the settings (no organisation, IP whitelist, licence or order expired,
 * lost membership): what happened and the chooser as the way out, while personal sections keep working below.
 */
export const OrganizationNotice = observer(function OrganizationNotice() {
  const { session } = useStores();
  const kind = session.organizationNotice;
  if (!kind) return null;
  const page = ERROR_PAGES[kind];
  const here = currentPath();
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
          <FormattedMessage id={page.description} />
          <div style={{ marginTop: 8 }}>
            <Button size="small" href={switchOrganizationUrl(here)}>
              <FormattedMessage id="shell.org.choose" />
            </Button>
          </div>
        </>
      }
    />
  );
});
