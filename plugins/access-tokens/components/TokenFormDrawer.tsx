import { Alert, Button, Drawer, Form, Input, Space, Spin } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DATE_FORMAT } from '../../../src/core/i18n/format';
import type { AccessToken, TokenBody } from '../contract';
import { TOKEN_DESCRIPTION_MAX, TOKEN_DESCRIPTION_MIN, TOKEN_NAME_MAX } from '../limits';
import { fromGrants, toGrants, type ScopeSelection } from '../scopes';
import type { AccessTokensStore } from '../store';
import { ScopeTree } from './ScopeTree';
import { ExpiryPicker, expiryOf, type ExpiryChoice } from './ExpiryPicker';

/** Props of the create/edit drawer. */
export interface TokenFormDrawerProps {
  store: AccessTokensStore;
  open: boolean;
  /** The token being edited; absent when creating. */
  token?: AccessToken;
  onClose: () => void;
  /** Saves; resolves true when the drawer may close. */
  onSubmit: (values: TokenBody) => Promise<boolean>;
}

/** The form inside the drawer; mounted per opening so every opening starts clean. */
const TokenForm = observer(function TokenForm({
  store,
  token,
  onClose,
  onSubmit,
  onValidity,
}: Omit<TokenFormDrawerProps, 'open'> & { onValidity: (valid: boolean) => void }) {
  const intl = useIntl();
  const [name, setName] = useState(token?.name ?? '');
  const [description, setDescription] = useState(token?.description ?? '');
  const [choice, setChoice] = useState<ExpiryChoice | undefined>(token?.expires_at ? 'custom' : undefined);
  const [date, setDate] = useState<Dayjs | null>(token?.expires_at ? dayjs(token.expires_at) : null);
  const [picked, setPicked] = useState<ScopeSelection | null>(null);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const tree = store.scopes;
  // An edited token's grants become a selection once the catalogue is there.
  const selection = useMemo(() => picked ?? (token ? fromGrants(tree, token.token_scopes) : {}), [picked, token, tree]);

  const expiresAt = useMemo(() => expiryOf(choice, date), [choice, date]);
  const grants = toGrants(tree, selection);
  const errors = {
    name: !name.trim() ? 'access-tokens.form.nameRequired' : undefined,
    // The specification asks for 1 to 200 characters (the input stops at 200; the service checks both limits).
    description:
      description.trim().length < TOKEN_DESCRIPTION_MIN ? 'access-tokens.form.descriptionRequired' : undefined,
    expiry: !expiresAt ? 'access-tokens.form.expiryRequired' : undefined,
    scopes: !grants.length ? 'access-tokens.form.scopesRequired' : undefined,
  };
  const invalid =
    Object.values(errors).some(Boolean) ||
    name.length > TOKEN_NAME_MAX ||
    description.trim().length > TOKEN_DESCRIPTION_MAX;
  const show = (field: keyof typeof errors) => (touched[field] ? errors[field] : undefined);
  const help = (field: keyof typeof errors) => {
    const id = show(field);
    return id ? intl.formatMessage({ id }) : undefined;
  };

  const submit = async () => {
    if (invalid || !expiresAt) return;
    const ok = await onSubmit({
      name: name.trim(),
      description: description.trim(),
      token_scopes: grants,
      expires_at: expiresAt,
    });
    if (ok) onClose();
  };

  useEffect(() => onValidity(!invalid), [invalid, onValidity]);

  return (
    <Form layout="vertical" requiredMark onFinish={() => void submit()} id="access-token-form">
      <Form.Item
        label={<FormattedMessage id="access-tokens.form.name" />}
        htmlFor="access-token-name"
        required
        validateStatus={show('name') ? 'error' : undefined}
        help={help('name')}
      >
        <Input
          id="access-token-name"
          value={name}
          maxLength={TOKEN_NAME_MAX}
          showCount
          placeholder={intl.formatMessage({ id: 'access-tokens.form.namePlaceholder' })}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => setTouched((t) => ({ ...t, name: true }))}
        />
      </Form.Item>
      <Form.Item
        label={<FormattedMessage id="access-tokens.form.description" />}
        htmlFor="access-token-description"
        required
        validateStatus={show('description') ? 'error' : undefined}
        help={help('description')}
      >
        <Input.TextArea
          id="access-token-description"
          value={description}
          maxLength={TOKEN_DESCRIPTION_MAX}
          showCount
          rows={2}
          placeholder={intl.formatMessage({ id: 'access-tokens.form.descriptionPlaceholder' })}
          onChange={(e) => setDescription(e.target.value)}
          onBlur={() => setTouched((t) => ({ ...t, description: true }))}
        />
      </Form.Item>
      <Form.Item
        label={<span id="access-token-expiry-label">{intl.formatMessage({ id: 'access-tokens.form.expiry' })}</span>}
        required
        validateStatus={show('expiry') ? 'error' : undefined}
        help={help('expiry')}
        extra={
          expiresAt ? (
            <FormattedMessage
              id="access-tokens.form.expiresOn"
              values={{ date: dayjs(expiresAt).format(DATE_FORMAT) }}
            />
          ) : undefined
        }
      >
        <ExpiryPicker
          labelledBy="access-token-expiry-label"
          choice={choice}
          date={date}
          onChoice={(c) => {
            setChoice(c);
            setTouched((t) => ({ ...t, expiry: true }));
          }}
          onDate={setDate}
        />
      </Form.Item>
      <Form.Item
        label={<span id="access-token-scopes-label">{intl.formatMessage({ id: 'access-tokens.form.scopes' })}</span>}
        required
        validateStatus={show('scopes') ? 'error' : undefined}
        help={help('scopes')}
      >
        <div role="group" aria-labelledby="access-token-scopes-label">
          {store.scopesLoading && <Spin />}
          {store.scopesFailed && (
            <Alert
              type="error"
              showIcon
              title={<FormattedMessage id="access-tokens.form.scopesLoadFailed" />}
              action={
                <Button size="small" onClick={() => void store.loadScopes()}>
                  <FormattedMessage id="access-tokens.form.retry" />
                </Button>
              }
            />
          )}
          <ScopeTree
            tree={tree}
            value={selection}
            onChange={(next) => {
              setPicked(next);
              setTouched((t) => ({ ...t, scopes: true }));
            }}
          />
        </div>
      </Form.Item>
    </Form>
  );
});

/** Create and edit drawer, 640 wide; the scope catalogue loads when it opens. */
export const TokenFormDrawer = observer(function TokenFormDrawer(props: TokenFormDrawerProps) {
  const { store, open, token, onClose } = props;
  const [valid, setValid] = useState(false);
  useEffect(() => {
    if (open) void store.loadScopes();
    else setValid(false);
  }, [open, store]);
  return (
    <Drawer
      open={open}
      size={640}
      destroyOnHidden
      onClose={onClose}
      title={<FormattedMessage id={token ? 'access-tokens.form.editTitle' : 'access-tokens.form.createTitle'} />}
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>
            <FormattedMessage id="access-tokens.form.cancel" />
          </Button>
          <Button
            type="primary"
            htmlType="submit"
            form="access-token-form"
            disabled={!valid}
            loading={store.saving}
            data-testid="token-save"
          >
            <FormattedMessage id="access-tokens.form.save" />
          </Button>
        </Space>
      }
    >
      {open && <TokenForm {...props} onValidity={setValid} />}
    </Drawer>
  );
});
