import { CheckCircleFilled, LoadingOutlined, SearchOutlined } from '@ant-design/icons';
import { Alert, Avatar, Button, Empty, Input, Skeleton, Tag, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useSearchParams, type NavigateFunction } from 'react-router-dom';
import { edition } from '../../../src/core/edition';
import { failureText } from '../../../src/core/stores/failure';
import { useStore, useStores } from '../../../src/core/stores/root';
import { isSameOriginPath } from '../../../src/core/url';
import { SignedIn } from '../components/SignedIn';
import type { Organization } from '../contract';
import { nextAfterSwitch } from '../store';

/** Paths this single-page app serves itself, reached without a reload (the session has just followed the switch). */
const APP_PATH = /^\/(users|login|sso)(\/|$|\?|#)/;

/** Goes to a target the URL checker accepted: in-app for the app's own paths, else a full navigation. */
export function goTo(target: string, navigate: NavigateFunction): void {
  let path: string | null = isSameOriginPath(target) ? target : null;
  if (!path) {
    const url = new URL(target, window.location.href);
    if (url.origin === window.location.origin) path = url.pathname + url.search + url.hash;
  }
  if (path && APP_PATH.test(path)) navigate(path);
  else window.location.assign(target);
}

/** One organisation of the list: a button that switches to it; the current one is marked. */
function OrganizationRow({
  organization,
  current,
  busy,
  onChoose,
}: {
  organization: Organization;
  current: boolean;
  busy: boolean;
  onChoose: () => void;
}) {
  return (
    <li>
      <button
        type="button"
        onClick={onChoose}
        aria-current={current ? 'true' : undefined}
        aria-busy={busy || undefined}
        data-testid="org-item"
        data-org-id={organization.id}
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 12,
          width: '100%',
          padding: '12px 16px',
          border: `1px solid ${current ? edition.brand.color : 'var(--ant-color-border)'}`,
          borderRadius: 8,
          background: 'var(--ant-color-bg-container)',
          color: 'var(--ant-color-text)',
          font: 'inherit',
          textAlign: 'left',
          cursor: 'pointer',
        }}
      >
        {/* The initial as the avatar's icon: antd hides text children until it has measured them in the browser,
            which would leave a painted page's avatars blank until the app is there. */}
        <Avatar
          shape="square"
          size={32}
          src={organization.logo || undefined}
          alt=""
          icon={<span style={{ fontSize: 18 }}>{organization.name.slice(0, 1).toUpperCase()}</span>}
          style={{ flex: 'none' }}
        />
        <span style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {organization.name}
        </span>
        {busy && <LoadingOutlined aria-hidden />}
        {current && (
          <Tag color="blue" icon={<CheckCircleFilled aria-hidden />} style={{ marginInlineEnd: 0 }}>
            <FormattedMessage id="switch-org.list.current" />
          </Tag>
        )}
      </button>
    </li>
  );
}

/** The chooser: the caller's organisations (first page, then "load more"), a filter, the current one marked. */
const SwitchOrganizationView = observer(function SwitchOrganizationView() {
  const store = useStore('switchOrganizations');
  const { session } = useStores();
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const userId = session.user?.id;
  const currentId = session.user?.organization_id ?? null;

  useEffect(() => {
    if (userId) void store.load();
  }, [store, userId]);

  const choose = async (organization: Organization) => {
    setFailure(null);
    const result = await store.choose(organization.id);
    if (result.ok) goTo(nextAfterSwitch(params.get('nextUrl'), window.location.origin), navigate);
    // Nothing to add for a response ≥ 500: the central notice (with its requestId) has said it.
    else if (result.failure) setFailure(failureText(result.failure, t));
  };

  const loadMore = async () => {
    setFailure(null);
    const result = await store.loadMore();
    if (!result.ok && result.failure) setFailure(failureText(result.failure, t));
  };

  const visible = store.visible;
  let body;
  if (store.loading && !store.loaded) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (store.failed)
    body = (
      <Alert
        type="error"
        showIcon
        role="alert"
        title={t('switch-org.list.loadFailed')}
        action={
          <Button size="small" onClick={() => void store.load()}>
            <FormattedMessage id="switch-org.list.retry" />
          </Button>
        }
      />
    );
  else if (store.organizations.length === 0)
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <Typography.Paragraph strong style={{ marginBottom: 4 }}>
              <FormattedMessage id="switch-org.list.empty" />
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary">
              <FormattedMessage id="switch-org.list.emptyHint" />
            </Typography.Paragraph>
          </>
        }
      >
        <Button href="/users/settings">
          <FormattedMessage id="switch-org.list.backToSettings" />
        </Button>
      </Empty>
    );
  else
    body = (
      <>
        <Input
          allowClear
          value={store.filter}
          onChange={(e) => store.setFilter(e.target.value)}
          prefix={<SearchOutlined aria-hidden />}
          placeholder={t('switch-org.filter.placeholder')}
          aria-label={t('switch-org.filter.label')}
          data-testid="org-filter"
          style={{ marginBottom: 12 }}
        />
        <Typography.Text type="secondary" role="status" style={{ display: 'block', marginBottom: 8, fontSize: 13 }}>
          <FormattedMessage id="switch-org.list.count" values={{ count: store.organizations.length }} />
        </Typography.Text>
        {visible.length ? (
          <ul
            aria-label={t('switch-org.list.label')}
            style={{
              listStyle: 'none',
              margin: 0,
              padding: 0,
              display: 'grid',
              // minmax(0, …): a long name ellipsises instead of widening the page on a narrow window.
              gridTemplateColumns: 'minmax(0, 1fr)',
              gap: 8,
            }}
          >
            {visible.map((o) => (
              <OrganizationRow
                key={o.id}
                organization={o}
                current={o.id === currentId}
                busy={store.switchingId === o.id}
                onChoose={() => void choose(o)}
              />
            ))}
          </ul>
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              <>
                <FormattedMessage id="switch-org.list.noMatch" values={{ filter: store.filter.trim() }} />
                {store.nextToken && (
                  <>
                    {' '}
                    <FormattedMessage id="switch-org.list.noMatchMore" />
                  </>
                )}
              </>
            }
          />
        )}
        {store.nextToken && (
          <div style={{ textAlign: 'center', marginTop: 16 }}>
            <Button onClick={() => void loadMore()} loading={store.loadingMore} data-testid="org-load-more">
              <FormattedMessage id="switch-org.list.loadMore" />
            </Button>
          </div>
        )}
      </>
    );

  return (
    <section aria-labelledby="switch-org-title" style={{ maxWidth: 640, margin: '0 auto', width: '100%', minWidth: 0 }}>
      <Typography.Title id="switch-org-title" level={1} style={{ fontSize: 20, marginTop: 0 }}>
        <FormattedMessage id="switch-org.page.title" />
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        <FormattedMessage id="switch-org.page.description" />
      </Typography.Paragraph>
      {failure && (
        <Alert
          type="error"
          showIcon
          role="alert"
          closable
          onClose={() => setFailure(null)}
          title={failure}
          data-testid="org-switch-failure"
          style={{ marginBottom: 12 }}
        />
      )}
      {body}
    </section>
  );
});

/** `/users/switch/organization`: the organisation chooser, once the session knows the user. */
export default function SwitchOrganizationPage() {
  return (
    <SignedIn>
      <SwitchOrganizationView />
    </SignedIn>
  );
}
