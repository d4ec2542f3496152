import { Button, Flex, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { InputRef } from 'antd';
import type { ReauthResult, ReauthState } from '../../schemas/reauth';
import { REAUTH_PATHS, reauthProviderPath } from '../../schemas/reauth-paths';
import { edition } from './edition';
import type { RequestClient } from './request/client';
import type { RequestError } from './request/errors';

/**
 * Re-authentication in the web (schemas/reauth.ts): a sensitive call answered 403 ReauthRequired opens this dialog;
 * the member proves it is them (the password, a directory account's directory password, or a round trip to the
 * third-party provider), the client takes the rotated session's CSRF token, and the call is repeated. Loaded on first
 * use (its own chunk), rendered through antd's static Modal so it needs no mount in the app and wears its theme.
 */

/** A proof may wait for a directory (it answers within 5 s, then the service does): longer than the 5 s default. */
const PROOF_TIMEOUT_MS = 10_000;

/** Where the member is, to come back to after a provider round trip or a new sign-in. */
const here = () => window.location.pathname + window.location.search;

/** What the dialog needs: how to prove, its texts, and the proof itself (null when taken, else the text to show). */
interface ReauthFormProps {
  state: ReauthState;
  translate: (id: string) => string;
  prove: (password: string) => Promise<string | null>;
  cancel: () => void;
}

/** The dialog's body: the password field (Enter proves), or the provider's button; Cancel in both. */
function ReauthForm({ state, translate, prove, cancel }: ReauthFormProps) {
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<InputRef>(null);
  // After the dialog's own focus handling (it focuses its container when it opens).
  useEffect(() => {
    const timer = setTimeout(() => field.current?.focus(), 50);
    return () => clearTimeout(timer);
  }, []);

  if (state.method === 'provider') {
    const go = () =>
      window.location.assign(
        state.provider
          ? reauthProviderPath(state.provider.id, here())
          : `${edition.paths.relogin}?next=${encodeURIComponent(here())}`,
      );
    return (
      <Flex vertical gap={12} data-testid="core-reauth">
        <Typography.Paragraph style={{ margin: 0 }}>
          {translate(state.provider ? 'core.reauth.providerHint' : 'core.reauth.signInAgainHint')}
        </Typography.Paragraph>
        <Flex gap={8} justify="flex-end">
          <Button onClick={cancel}>{translate('core.reauth.cancel')}</Button>
          <Button type="primary" onClick={go} autoFocus data-testid="core-reauth-provider">
            {state.provider
              ? `${translate('core.reauth.continueWith')} ${state.provider.name}`
              : translate('core.reauth.signInAgain')}
          </Button>
        </Flex>
      </Flex>
    );
  }

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy) return;
    if (!password) {
      setProblem(translate('core.reauth.passwordRequired'));
      return;
    }
    setBusy(true);
    const refused = await prove(password);
    setBusy(false);
    if (refused !== null) {
      setProblem(refused);
      setPassword('');
      field.current?.focus();
    }
  };
  const label =
    state.method === 'directory' && state.directory
      ? `${state.directory} ${translate('core.reauth.directoryPassword')}`
      : translate('core.reauth.password');
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="core-reauth" noValidate>
      <Typography.Paragraph>
        {translate(state.method === 'directory' ? 'core.reauth.directoryHint' : 'core.reauth.hint')}
      </Typography.Paragraph>
      <Form.Item
        layout="vertical"
        label={label}
        htmlFor="core-reauth-password"
        validateStatus={problem ? 'error' : undefined}
        help={problem ? <span role="alert">{problem}</span> : undefined}
      >
        <Input.Password
          id="core-reauth-password"
          ref={field}
          value={password}
          autoComplete="current-password"
          aria-invalid={problem ? true : undefined}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="core-reauth-password"
        />
      </Form.Item>
      <Flex gap={8} justify="flex-end">
        <Button onClick={cancel}>{translate('core.reauth.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="core-reauth-confirm">
          {translate('core.reauth.confirm')}
        </Button>
      </Flex>
    </form>
  );
}

/** The text of a refused proof: the service's own (in the page's language), else the dialog's fallback. */
function refusalText(error: RequestError, translate: (id: string) => string): string {
  const message = (error.data as { message?: unknown } | undefined)?.message;
  return error.status >= 400 && error.status < 500 && typeof message === 'string' && message
    ? message
    : translate('core.reauth.failed');
}

/**
 * Asks the member to prove it is them (the request client's `reauthenticate` hook): resolves true once the service
 * took a proof (the client then carries the rotated session's CSRF token), false on Cancel or Esc. A provider account
 * leaves the page for the round trip (which comes back to it), so the promise then never settles.
 */
export async function reauthenticate(
  client: RequestClient,
  translate: (id: string) => string,
  _error: RequestError,
): Promise<boolean> {
  const [failed, state] = await client.get<ReauthState>(REAUTH_PATHS.my, undefined, { reauth: false });
  if (failed) return false;
  return new Promise<boolean>((resolve) => {
    let settled = false;
    const done = (proved: boolean) => {
      if (settled) return;
      settled = true;
      dialog.destroy();
      resolve(proved);
    };
    const prove = async (password: string) => {
      const [error, result] = await client.post<ReauthResult>(
        REAUTH_PATHS.my,
        { password },
        { reauth: false, timeoutMs: PROOF_TIMEOUT_MS },
      );
      if (error) return refusalText(error, translate);
      client.setCsrfToken(result.csrf_token);
      done(true);
      return null;
    };
    const dialog = Modal.confirm({
      title: translate('core.reauth.title'),
      icon: null,
      content: <ReauthForm state={state} translate={translate} prove={prove} cancel={() => done(false)} />,
      footer: null,
      closable: true,
      keyboard: true,
      maskClosable: false,
      autoFocusButton: null,
      onCancel: () => done(false),
    });
  });
}
