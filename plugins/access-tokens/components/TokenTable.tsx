import { Button, Empty, Popconfirm, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { observer } from 'mobx-react-lite';
import { FormattedMessage, useIntl } from 'react-intl';
import { CredentialLastUse } from '../../../src/core/ui/CredentialLastUse';
import { useInBrowser } from '../../../src/core/ui/BrowserState';
import { LocalTime } from '../../../src/core/ui/LocalTime';
import { ResponsiveTable, useInCard } from '../../../src/core/ui/ResponsiveTable';
import { Truncated, type TruncatedProps } from '../../../src/core/ui/Truncated';
import type { AccessToken } from '../contract';
import { tokenState } from '../expiry';
import { PAGE_SIZE_OPTIONS, type AccessTokensStore } from '../store';
import { MUTED_COLOR } from './styles';

/** Props of the token list. */
export interface TokenTableProps {
  store: AccessTokensStore;
  onCreate: () => void;
  onEdit: (token: AccessToken) => void;
  onDelete: (token: AccessToken) => Promise<void>;
  /** Opens the regenerate dialog (a live token) or the re-create dialog (an expired one). */
  onRenew: (token: AccessToken, mode: 'regenerate' | 'recreate') => void;
}

const SHOWN_SCOPES = 2;

/** A name or description line: in the table a long one gives way to the other columns; in a card it has its width. */
function CellText(props: Omit<TruncatedProps, 'maxWidth'>) {
  return <Truncated {...props} maxWidth={useInCard() ? '100%' : 200} />;
}

/**
 * The list: name and state, scopes, created, expires, last used (with its address, and the usage timeline a click
 * away), and edit/delete per token. A long name or
 * description is cut to one line (whole on hover and focus); on a narrow window each token is a card.
 */
export const TokenTable = observer(function TokenTable({
  store,
  onCreate,
  onEdit,
  onDelete,
  onRenew,
}: TokenTableProps) {
  const intl = useIntl();
  // "About to expire" depends on the browser's clock, which a page the service rendered cannot know: until the app
  // has the page, a token is expired or not as the service said (its `expired`), and the tag for one about to expire
  // comes once hydrated.
  const now = useInBrowser() ? Date.now() : undefined;
  const columns: ColumnsType<AccessToken> = [
    {
      key: 'name',
      title: <FormattedMessage id="access-tokens.list.name" />,
      render: (_, t) => {
        const state = t.expired ? 'expired' : now === undefined ? 'valid' : tokenState(t.expires_at, now);
        return (
          <div style={{ display: 'grid', gap: 2, minWidth: 0 }}>
            <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 6, minWidth: 0 }}>
              <CellText text={t.name} strong data-testid="token-name" />
              {state === 'expired' && (
                <Tag color="error" data-testid="token-expired">
                  <FormattedMessage id="access-tokens.list.expired" />
                </Tag>
              )}
              {t.replaced && !t.expired && (
                <Tooltip title={<FormattedMessage id="access-tokens.list.replacedHint" />}>
                  <Tag tabIndex={0} data-testid="token-replaced">
                    <FormattedMessage id="access-tokens.list.replaced" />
                  </Tag>
                </Tooltip>
              )}
              {state === 'expiring' && !t.replaced && (
                <Tag color="warning">
                  <FormattedMessage id="access-tokens.list.expiring" />
                </Tag>
              )}
            </div>
            {t.description && <CellText text={t.description} secondary />}
          </div>
        );
      },
    },
    {
      key: 'scopes',
      title: <FormattedMessage id="access-tokens.list.scopes" />,
      render: (_, t) => (
        <Space size={[4, 4]} wrap style={{ maxWidth: 200 }}>
          {t.token_scopes.slice(0, SHOWN_SCOPES).map((s) => (
            <Tag key={s} style={{ marginInlineEnd: 0 }}>
              {s}
            </Tag>
          ))}
          {t.token_scopes.length > SHOWN_SCOPES && (
            <Tooltip title={t.token_scopes.join(', ')}>
              <Tag style={{ marginInlineEnd: 0 }} tabIndex={0}>
                <FormattedMessage
                  id="access-tokens.list.moreScopes"
                  values={{ count: t.token_scopes.length - SHOWN_SCOPES }}
                />
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      key: 'created',
      title: <FormattedMessage id="access-tokens.list.created" />,
      render: (_, t) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          <LocalTime value={t.created_at} />
        </span>
      ),
    },
    {
      key: 'expires',
      title: <FormattedMessage id="access-tokens.list.expires" />,
      render: (_, t) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {t.expires_at ? <LocalTime value={t.expires_at} /> : <FormattedMessage id="access-tokens.list.never" />}
        </span>
      ),
    },
    {
      key: 'lastUsed',
      title: <FormattedMessage id="access-tokens.list.lastUsed" />,
      render: (_, t) => (
        <CredentialLastUse
          kind="token"
          id={t.token_id}
          name={t.name}
          lastUse={t.last_use}
          lastUsedAt={t.last_used_at}
          data-testid="token-last-use"
        />
      ),
    },
    {
      key: 'actions',
      fixed: 'right',
      title: <FormattedMessage id="access-tokens.list.actions" />,
      render: (_, t) => (
        <Space size={0}>
          {t.expired ? (
            <Button type="link" size="small" onClick={() => onRenew(t, 'recreate')}>
              <FormattedMessage id="access-tokens.list.recreate" />
            </Button>
          ) : (
            // The old secret of a regenerated token is not edited or regenerated: deleting it stops it now.
            !t.replaced && (
              <>
                <Button type="link" size="small" onClick={() => onEdit(t)}>
                  <FormattedMessage id="access-tokens.list.edit" />
                </Button>
                <Button type="link" size="small" onClick={() => onRenew(t, 'regenerate')}>
                  <FormattedMessage id="access-tokens.list.regenerate" />
                </Button>
              </>
            )
          )}
          <Popconfirm
            title={<FormattedMessage id="access-tokens.delete.title" values={{ name: t.name }} />}
            description={<FormattedMessage id="access-tokens.delete.content" />}
            okText={intl.formatMessage({ id: 'access-tokens.delete.ok' })}
            cancelText={intl.formatMessage({ id: 'access-tokens.delete.cancel' })}
            okButtonProps={{ danger: true, loading: store.saving }}
            onConfirm={() => onDelete(t)}
          >
            <Button type="link" size="small" danger>
              <FormattedMessage id="access-tokens.list.delete" />
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ResponsiveTable<AccessToken>
        data-testid="token-card"
        rowKey="token_id"
        size="middle"
        columns={columns}
        dataSource={store.list}
        loading={store.loading}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: store.loaded ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                <span style={{ color: MUTED_COLOR }}>
                  <FormattedMessage id="access-tokens.empty.title" />
                </span>
              }
            >
              <Button type="primary" onClick={onCreate}>
                <FormattedMessage id="access-tokens.page.create" />
              </Button>
            </Empty>
          ) : (
            <span />
          ),
        }}
        pagination={{
          current: store.page.current,
          pageSize: store.page.pageSize,
          total: store.page.total,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZE_OPTIONS,
          hideOnSinglePage: false,
          onChange: (current, pageSize) => store.setPage(current, pageSize),
        }}
      />
    </>
  );
});
