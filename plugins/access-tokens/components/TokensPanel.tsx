import { PlusOutlined } from '@ant-design/icons';
import { Button, Flex, message, Switch, Typography } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation, useNavigate } from 'react-router-dom';
import { edition } from '../../../src/core/edition';
import type { ActionResult } from '../../../src/core/stores/failure';
import { useStore } from '../../../src/core/stores/root';
import { lazyOverlay } from '../../../src/core/ui/lazyOverlay';
import { useInBrowser } from '../../../src/core/ui/BrowserState';
import type { AccessToken, TokenBody } from '../contract';
import { FAILURE_MESSAGES } from '../store';
import { TokenCreatedAlert } from './TokenCreatedAlert';
import { TokenTable } from './TokenTable';
import { TokenRenewalNote } from './TokenRenewalNote';
import type { RenewMode } from './TokenRenewDialog';
import { MUTED_COLOR } from './styles';

/** The create/edit form, loaded when it first opens (src/core/ui/lazyOverlay.tsx). */
const TokenFormDrawer = lazyOverlay(() =>
  import(/* webpackChunkName: "plugin-access-tokens-form" */ './TokenFormDrawer').then((m) => m.TokenFormDrawer),
);

/** The regenerate / re-create dialog, loaded when it first opens. */
const TokenRenewDialog = lazyOverlay(() =>
  import(/* webpackChunkName: "plugin-access-tokens-renew" */ './TokenRenewDialog').then((m) => m.TokenRenewDialog),
);

/** Where the section lives; `/create` under it opens the create drawer. */
export const SECTION_PATH = '/users/settings/personalAccessToken';

/** The section's content: heading, one-time token, list, and the create/edit drawers. */
export const TokensPanel = observer(function TokensPanel({ showTitle = true }: { showTitle?: boolean }) {
  const store = useStore('accessTokens');
  const intl = useIntl();
  const navigate = useNavigate();
  const location = useLocation();
  const [messageApi, contextHolder] = message.useMessage();
  const [editing, setEditing] = useState<AccessToken | null>(null);
  // The token being regenerated or re-created, kept while the dialog closes (its `open` is `renewOpen`), and which
  // opening this is: each opening mounts a new dialog (its key), so it starts from the defaults.
  const [renewing, setRenewing] = useState<{ token: AccessToken; mode: RenewMode; opening: number } | null>(null);
  const [renewOpen, setRenewOpen] = useState(false);
  // `/create` opens the drawer once the app has the page: a page the service rendered shows the list under it (the
  // drawer's code is not in the page; React would wait for it to hydrate), and the drawer slides in after hydration.
  const inBrowser = useInBrowser();
  const creating = inBrowser && /\/create\/?$/.test(location.pathname);

  useEffect(() => {
    void store.load();
    // Leaving the screen forgets the one-time value.
    return () => store.reset();
  }, [store]);

  const report = (r: ActionResult, okId: string, failId: string) => {
    const t = (id: string) => intl.formatMessage({ id });
    if (r.ok) void messageApi.success(t(okId));
    // No failure to show is a response ≥ 500: the central notice (with its requestId) has said it.
    else if (r.failure) void messageApi.error('id' in r.failure ? t(r.failure.id) : `${t(failId)}: ${r.failure.text}`);
    return r.ok;
  };
  const create = async (values: TokenBody) =>
    report(await store.create(values), 'access-tokens.result.created', FAILURE_MESSAGES.create);
  const update = async (values: TokenBody) =>
    editing
      ? report(await store.update(editing.token_id, values), 'access-tokens.result.updated', FAILURE_MESSAGES.update)
      : false;
  const remove = async (t: AccessToken) => {
    report(await store.remove(t.token_id), 'access-tokens.result.deleted', FAILURE_MESSAGES.remove);
  };
  const renew = async ({ expiresAt, graceMinutes }: { expiresAt: string; graceMinutes: number }) => {
    if (!renewing) return false;
    const { token, mode } = renewing;
    return mode === 'regenerate'
      ? report(
          await store.regenerate(token.token_id, { expires_at: expiresAt, grace_minutes: graceMinutes }),
          'access-tokens.result.regenerated',
          FAILURE_MESSAGES.regenerate,
        )
      : report(
          await store.recreate(token.token_id, { expires_at: expiresAt }),
          'access-tokens.result.recreated',
          FAILURE_MESSAGES.recreate,
        );
  };
  const openCreate = () => navigate(`${SECTION_PATH}/create`);
  const helpLink = edition.helpLinks.openApi ?? edition.helpLinks.accessToken;

  return (
    <div style={{ padding: 24 }} data-testid="access-tokens">
      {contextHolder}
      <Flex justify="space-between" align="flex-start" gap={16} wrap style={{ marginBottom: 16 }}>
        <div style={{ flex: '1 1 360px' }}>
          {showTitle && (
            <Typography.Title id="access-tokens-title" level={1} style={{ fontSize: 20, marginTop: 0 }}>
              <FormattedMessage id="access-tokens.page.title" />
            </Typography.Title>
          )}
          <Typography.Paragraph style={{ marginBottom: 4, color: MUTED_COLOR }}>
            <FormattedMessage
              id="access-tokens.page.description"
              values={{
                openApi: helpLink ? (
                  <Typography.Link
                    key="openApi"
                    href={helpLink}
                    target="_blank"
                    rel="noopener noreferrer"
                    style={{ textDecoration: 'underline' }}
                  >
                    <FormattedMessage id="access-tokens.page.openApi" />
                  </Typography.Link>
                ) : (
                  <FormattedMessage key="openApi" id="access-tokens.page.openApi" />
                ),
              }}
            />
          </Typography.Paragraph>
          <Typography.Text style={{ color: MUTED_COLOR }} data-testid="token-count">
            <FormattedMessage id="access-tokens.page.count" values={{ count: store.page.total }} />
          </Typography.Text>
        </div>
        <Flex align="center" gap={16} wrap>
          <Flex align="center" gap={8}>
            <Switch
              id="access-tokens-include-expired"
              size="small"
              checked={store.includeExpired}
              onChange={(v) => store.setIncludeExpired(v)}
            />
            <label htmlFor="access-tokens-include-expired">
              <FormattedMessage id="access-tokens.page.includeExpired" />
            </label>
          </Flex>
          <Button type="primary" icon={<PlusOutlined />} onClick={openCreate} data-testid="token-create">
            <FormattedMessage id="access-tokens.page.create" />
          </Button>
        </Flex>
      </Flex>
      <TokenCreatedAlert store={store} message={messageApi} />
      <TokenRenewalNote store={store} />
      <TokenTable
        store={store}
        onCreate={openCreate}
        onEdit={setEditing}
        onDelete={remove}
        onRenew={(token, mode) => {
          setRenewing((r) => ({ token, mode, opening: (r?.opening ?? 0) + 1 }));
          setRenewOpen(true);
        }}
      />
      <TokenRenewDialog
        key={renewing?.opening}
        store={store}
        open={renewOpen}
        token={renewing?.token ?? null}
        mode={renewing?.mode ?? 'regenerate'}
        onClose={() => setRenewOpen(false)}
        onSubmit={renew}
      />
      <TokenFormDrawer store={store} open={creating} onClose={() => navigate(SECTION_PATH)} onSubmit={create} />
      <TokenFormDrawer
        store={store}
        open={!!editing}
        token={editing ?? undefined}
        onClose={() => setEditing(null)}
        onSubmit={update}
      />
    </div>
  );
});
