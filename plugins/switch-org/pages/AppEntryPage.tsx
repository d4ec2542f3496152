import { UserOutlined } from '@ant-design/icons';
import { Alert, Avatar, Button, Result, Spin, Typography } from 'antd';
import type { ResultProps } from 'antd';

type ResultStatusType = NonNullable<ResultProps['status']>;
import { observer } from 'mobx-react-lite';
import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation, useParams, useSearchParams } from 'react-router-dom';
import { edition } from '../../../src/core/edition';
import { SECURITY_PAGE } from '../../../src/core/organization';
import { failureText } from '../../../src/core/stores/failure';
import { useStore, useStores } from '../../../src/core/stores/root';
import { SignedIn } from '../components/SignedIn';
import { appKeyOf, type AdminContact, type EntryKind } from '../store';

/** What each stopped verdict shows: status icon, title, description, and whether another organisation is the way out. */
const ENTRY_PAGES = {
  badParam: {
    status: 'warning',
    title: 'switch-org.entry.badParam.title',
    description: 'switch-org.entry.badParam.description',
  },
  mismatch: {
    status: 'warning',
    title: 'switch-org.entry.mismatch.title',
    description: 'switch-org.entry.mismatch.description',
  },
  noPermission: {
    status: '403',
    title: 'switch-org.entry.noPermission.title',
    description: 'switch-org.entry.noPermission.description',
  },
  notInstalled: {
    status: 'warning',
    title: 'switch-org.entry.notInstalled.title',
    description: 'switch-org.entry.notInstalled.description',
  },
  noOrgPermission: {
    status: '403',
    title: 'switch-org.entry.noOrgPermission.title',
    description: 'switch-org.entry.noOrgPermission.description',
  },
  unreachable: {
    status: 'warning',
    title: 'switch-org.entry.unreachable.title',
    description: 'switch-org.entry.unreachable.description',
  },
  ipRestricted: {
    status: '403',
    title: 'switch-org.entry.ipRestricted.title',
    description: 'switch-org.error.ipRestricted',
  },
  licenceExpired: {
    status: 'warning',
    title: 'switch-org.entry.licenceExpired.title',
    description: 'switch-org.error.licenceExpired',
  },
  orderExpired: {
    status: 'warning',
    title: 'switch-org.entry.orderExpired.title',
    description: 'switch-org.error.orderExpired',
  },
  secondFactorRequired: {
    status: 'warning',
    title: 'switch-org.entry.secondFactorRequired.title',
    description: 'switch-org.error.secondFactorRequired',
  },
} as const satisfies Record<
  Exclude<EntryKind, 'checking' | 'redirect'>,
  { status: ResultStatusType; title: string; description: string }
>;

/** Whom a refused user can ask: the app's administrators, or the organisation's when the app names none. */
function AdminList({ admins }: { admins: AdminContact[] }) {
  if (admins.length === 0)
    return (
      <Typography.Paragraph>
        <FormattedMessage id="switch-org.entry.noPermission.contactOrg" />
      </Typography.Paragraph>
    );
  return (
    <div data-testid="entry-admins">
      <Typography.Paragraph style={{ marginBottom: 8 }}>
        <FormattedMessage id="switch-org.entry.noPermission.contact" />
      </Typography.Paragraph>
      <ul
        style={{
          listStyle: 'none',
          margin: 0,
          padding: 0,
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'center',
          gap: '8px 16px',
        }}
      >
        {admins.map((a) => (
          <li key={a.userId} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
            <Avatar size={24} src={a.avatar || undefined} icon={<UserOutlined />} alt="" />
            <span>
              {a.name || <FormattedMessage id="switch-org.entry.noPermission.unnamed" values={{ id: a.userId }} />}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The guard at `/users/switch/{organizationId}/app-entry?app=…`: checks, then leaves for the app or says why not. */
const AppEntryView = observer(function AppEntryView() {
  const store = useStore('appEntry');
  const { session } = useStores();
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { organizationId = '' } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const appRef = params.get('app');
  const currentOrg = session.user?.organization_id ?? null;
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    // Runs again once a switch made the link's organisation the current one.
    void store.check(organizationId, appRef, window.location.origin);
  }, [store, organizationId, appRef, currentOrg]);

  const state = store.state;
  useEffect(() => {
    if (state.kind === 'redirect') window.location.assign(state.url);
  }, [state]);

  if (state.kind === 'checking' || state.kind === 'redirect') {
    return (
      <section aria-labelledby="entry-title" style={{ textAlign: 'center', padding: '64px 16px' }}>
        <h1 id="entry-title" style={{ fontSize: 20, fontWeight: 500, margin: '0 0 16px' }}>
          <FormattedMessage id="switch-org.entry.title" />
        </h1>
        <Spin />
        <p role="status" style={{ marginTop: 12, color: 'var(--ant-color-text-secondary)' }}>
          <FormattedMessage
            id={state.kind === 'redirect' ? 'switch-org.entry.redirecting' : 'switch-org.entry.checking'}
          />
        </p>
      </section>
    );
  }

  const page = ENTRY_PAGES[state.kind];
  const appKey = appRef ? appKeyOf(appRef) : '';
  const app =
    store.appName ?? edition.appSwitcher.find((a) => a.key === appKey)?.name[session.locale] ?? (appRef || '');
  const here = location.pathname + location.search;
  const chooser = `/users/switch/organization?nextUrl=${encodeURIComponent(here)}`;

  const switchHere = async () => {
    setFailure(null);
    const result = await store.switchHere(organizationId);
    if (!result.ok && result.failure) setFailure(failureText(result.failure, t));
  };

  const actions: ReactNode[] = [];
  if (state.kind === 'mismatch')
    actions.push(
      <Button key="switch" type="primary" loading={store.saving} onClick={() => void switchHere()}>
        <FormattedMessage id="switch-org.entry.mismatch.switch" />
      </Button>,
    );
  if (state.kind === 'unreachable')
    actions.push(
      <Button
        key="retry"
        type="primary"
        onClick={() => void store.check(organizationId, appRef, window.location.origin)}
      >
        <FormattedMessage id="switch-org.entry.retry" />
      </Button>,
    );
  // The user can lift this one: the security page (personal, never refused) sets a second factor up.
  if (state.kind === 'secondFactorRequired')
    actions.push(
      <Button key="enrol" type="primary" href={SECURITY_PAGE}>
        <FormattedMessage id="switch-org.entry.secondFactorRequired.setUp" />
      </Button>,
    );
  if (state.kind !== 'badParam')
    actions.push(
      <Button key="choose" href={chooser}>
        <FormattedMessage id="switch-org.entry.chooseOrg" />
      </Button>,
    );
  actions.push(
    <Button key="back" href="/users/settings" type={actions.length ? 'default' : 'primary'}>
      <FormattedMessage id="switch-org.entry.back" />
    </Button>,
  );

  // antd draws a grey box for any children, so there are none unless there is something to say.
  const content =
    failure || state.kind === 'noPermission' ? (
      <>
        {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 12 }} />}
        {state.kind === 'noPermission' && <AdminList admins={state.admins} />}
      </>
    ) : undefined;

  return (
    <div data-testid="entry-result" data-entry={state.kind}>
      <Result
        status={page.status}
        title={
          <h1 style={{ font: 'inherit', margin: 0 }}>
            <FormattedMessage id={page.title} />
          </h1>
        }
        subTitle={<FormattedMessage id={page.description} values={{ app }} />}
        extra={actions}
      >
        {content}
      </Result>
    </div>
  );
});

/** `/users/switch/{organizationId}/app-entry`: the application entry guard, once the session knows the user. */
export default function AppEntryPage() {
  return (
    <SignedIn>
      <AppEntryView />
    </SignedIn>
  );
}
