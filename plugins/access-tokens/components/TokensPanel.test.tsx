import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithCore } from '../../../tests/kit/web';
import { AccessTokensStore } from '../store';
import { ok } from '../../../tests/kit/fake-backend';
import { testToken, tokenBackend } from '../test-backend';
import { LegacyTokensModal } from './LegacyTokensModal';
import { TokensPanel } from './TokensPanel';

function mount(store: AccessTokensStore, ui: React.ReactNode, at = '/users/settings/personalAccessToken') {
  return renderWithCore(ui, {
    stores: { accessTokens: store },
    route: at,
    path: '/users/settings/personalAccessToken/*',
  });
}

describe('personal access token page', () => {
  it('empty state, create drawer on /create with scopes on demand, save only when valid, one-time value', async () => {
    const svc = tokenBackend();
    const store = new AccessTokensStore(svc.client);
    const view = await mount(store, <TokensPanel />);
    const emptyCreate = await screen.findByRole('button', { name: 'Create token', hidden: false });
    expect(screen.getByText('No personal access tokens')).toBeTruthy();
    expect(svc.calls.some((c) => c.path.endsWith('tokens:scopes'))).toBe(false);

    // The drawer's code loads when it first opens (lazyOverlay): the click's act is awaited, so React retries the
    // suspended drawer once the code is there.
    await act(async () => fireEvent.click(emptyCreate));
    await waitFor(() => expect(view.location()).toBe('/users/settings/personalAccessToken/create'));
    await screen.findByText('Create personal access token', undefined, { timeout: 10000 });
    await waitFor(() => expect(svc.calls.some((c) => c.path.endsWith('tokens:scopes'))).toBe(true));
    const save = () => screen.getByTestId('token-save') as HTMLButtonElement;
    expect(save().disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  deploy  ' } });
    fireEvent.click(screen.getByText('30 days'));
    expect(save().disabled).toBe(true);
    // A description is required (1 to 200 characters).
    const description = screen.getByLabelText('Description');
    fireEvent.blur(description);
    expect(await screen.findByText('Please enter a description')).toBeTruthy();
    fireEvent.change(description, { target: { value: ' ships the nightly build ' } });
    // Checking the parent selects all of its children.
    fireEvent.click(await screen.findByRole('checkbox', { name: /^Organization organization$/ }));
    expect((screen.getByRole('checkbox', { name: /organization:member$/ }) as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(save().disabled).toBe(false));
    // Unchecking it removes parent and children.
    fireEvent.click(screen.getByRole('checkbox', { name: /^Organization organization$/ }));
    expect((screen.getByRole('checkbox', { name: /organization:info$/ }) as HTMLInputElement).checked).toBe(false);
    expect(save().disabled).toBe(true);
    expect(await screen.findByText('Select at least one scope')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: /base:user$/ }));

    await act(async () => fireEvent.click(save()));
    await screen.findByTestId('token-created');
    const post = svc.calls.find((c) => c.method === 'POST' && c.path === '/users/ajax/v1/my/tokens');
    expect(post?.body).toMatchObject({
      name: 'deploy',
      description: 'ships the nightly build',
      token_scopes: ['base:user:read'],
    });
    expect(post?.body).not.toHaveProperty('created_at');
    const expiresAt = new Date((post?.body as { expires_at: string }).expires_at);
    expect(expiresAt.getHours()).toBe(23);
    expect(expiresAt.getMinutes()).toBe(59);
    expect(expiresAt.getSeconds()).toBe(57);
    expect(view.location()).toBe('/users/settings/personalAccessToken');

    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const value = screen.getByTestId('token-value').textContent;
    // Ready to paste beside it: git over HTTPS with the member's username (the test edition names no host: the page's).
    await screen.findByTestId('credential-snippets', {}, { timeout: 15_000 });
    expect(screen.getByTestId('snippet-git-text').textContent).toContain(`username=alice\npassword=${value}\n`);
    await act(async () => fireEvent.click(screen.getByTestId('token-copy')));
    expect(writeText).toHaveBeenCalledWith(value);
    await waitFor(() => expect(screen.queryByTestId('token-created')).toBeNull());
    expect(await screen.findByText('The token has been copied')).toBeTruthy();
  }, 30_000);

  it('expired tokens are tagged and cannot be edited; others show their state', async () => {
    const soon = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString();
    const svc = tokenBackend({
      tokens: [
        testToken('old', { name: 'old one', expired: true, expires_at: '2020-01-01T00:00:00.000Z' }),
        testToken('soon', { name: 'soon one', expires_at: soon }),
      ],
    });
    await mount(new AccessTokensStore(svc.client), <TokensPanel />);
    await screen.findByText('old one');
    expect(screen.getByText('Expired')).toBeTruthy();
    expect(screen.getByText('About to expire')).toBeTruthy();
    expect(screen.getByText('2 tokens')).toBeTruthy();
    // The expired token is re-created, not edited; the live one is edited or regenerated.
    expect(screen.getAllByRole('button', { name: 'Edit' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Re-create' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Regenerate' })).toHaveLength(1);
  }, 30_000);

  it('shows each token’s last use with its address, and opens its usage timeline', async () => {
    const at = new Date(Date.now() - 3 * 60_000).toISOString();
    const svc = tokenBackend({
      tokens: [
        testToken('used', { name: 'ci', last_used_at: at, last_use: { at, address: '203.0.113.5', client: 'curl/8' } }),
        testToken('idle', { name: 'idle' }),
      ],
    });
    svc.on('GET /users/ajax/v1/my/credential-uses', () =>
      ok({
        uses: [
          {
            id: 'u1',
            at,
            address: '203.0.113.5',
            client: 'curl/8',
            action: 'GET /oapi/v1/platform/user',
            outcome: 'ok',
            reason: null,
          },
        ],
        next: null,
      }),
    );
    // The drawer calls through the core's client: the app has one, here the token backend's.
    await renderWithCore(<TokensPanel />, {
      stores: { accessTokens: new AccessTokensStore(svc.client) },
      backend: svc,
      route: '/users/settings/personalAccessToken',
      path: '/users/settings/personalAccessToken/*',
    });
    await screen.findByText('idle');
    expect(screen.getAllByTestId('token-last-use').map((n) => n.textContent)).toEqual([
      '3 minutes ago · 203.0.113.5',
      'Never used',
    ]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Usage of ci' })));
    const drawer = await screen.findByTestId('credential-uses', {}, { timeout: 10000 });
    expect(drawer.textContent).toContain('Uses of ci');
    await waitFor(() => expect(screen.getAllByTestId('credential-use')).toHaveLength(1));
    expect(svc.callsTo('GET /users/ajax/v1/my/credential-uses')[0].query).toEqual({ kind: 'token', id: 'used' });
  }, 30_000);

  it('regenerates a live token: grace chosen, the old secret’s end said, the new one in the one-time display', async () => {
    const svc = tokenBackend({ tokens: [testToken('live', { name: 'deploy' })] });
    await mount(new AccessTokensStore(svc.client), <TokensPanel />);
    const warning = () => screen.getByTestId('token-renew-warning').textContent;
    // A grace picked, then cancelled: the next opening starts again from the default.
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Regenerate' })));
    await screen.findByRole('dialog', undefined, { timeout: 10000 });
    fireEvent.click(screen.getByRole('radio', { name: 'After 24 hours' }));
    expect(warning()).toContain('keeps working until');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    // The closed dialog's own "Regenerate" stays in the document after the list's (jsdom ends no motion).
    await act(async () => fireEvent.click(screen.getAllByRole('button', { name: 'Regenerate' })[0]));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Regenerate the token “deploy”');
    // At once by default; a grace says until when the current secret works.
    expect(warning()).toContain('stops working as soon as');
    fireEvent.click(screen.getByRole('radio', { name: 'After 1 hour' }));
    expect(warning()).toContain('keeps working until');
    await act(async () => fireEvent.click(screen.getByTestId('token-renew-ok')));
    await screen.findByTestId('token-created');
    const call = svc.calls.find((c) => c.path.endsWith('/regenerate'));
    expect(call).toMatchObject({ path: '/users/ajax/v1/my/tokens/live/regenerate', body: { grace_minutes: 60 } });
    expect(Date.parse((call!.body as { expires_at: string }).expires_at)).toBeGreaterThan(Date.now() + 29 * 86400_000);
    expect(screen.getByTestId('token-value').textContent).toContain('pt-RENEWED');
    expect(screen.getByTestId('token-renewal-note').textContent).toContain('The old secret keeps working until');
  }, 30_000);

  it('re-creates an expired token, showing the scopes it leaves out before and after', async () => {
    const svc = tokenBackend({
      tokens: [
        testToken('old', {
          name: 'nightly',
          expired: true,
          expires_at: '2020-01-01T00:00:00.000Z',
          token_scopes: ['base:user:read', 'codeup:retired:read'],
        }),
      ],
    });
    await mount(new AccessTokensStore(svc.client), <TokensPanel />);
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Re-create' })));
    await screen.findByText('Re-create the expired token “nightly”', undefined, { timeout: 10000 });
    // The catalogue is asked for to tell what is left out.
    expect((await screen.findByTestId('token-renew-dropped')).textContent).toBe('codeup:retired:read');
    await act(async () => fireEvent.click(screen.getByTestId('token-renew-ok')));
    await screen.findByTestId('token-created');
    expect(svc.calls.find((c) => c.path.endsWith('/recreate'))?.path).toBe('/users/ajax/v1/my/tokens/old/recreate');
    const note = screen.getByTestId('token-renewal-note').textContent;
    expect(note).toContain('The old secret no longer works.');
    expect(note).toContain('A scope no longer offered was left out: codeup:retired:read');
  }, 30_000);

  it('legacy screen: a modal titled personal access token, listed through tokens:batch', async () => {
    const svc = tokenBackend({ tokens: [testToken('a', { name: 'legacy one' })] });
    const store = new AccessTokensStore(svc.client, { legacy: true, userId: () => 'u1' });
    const view = await mount(store, <LegacyTokensModal />, '/users/settings/personalAccessToken');
    expect(await screen.findByText('legacy one')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getAllByText('Personal access token').length).toBeGreaterThan(0);
    expect(svc.calls[0]).toMatchObject({ path: '/users/ajax/v1/tokens:batch', body: { user_id: 'u1' } });
    // Awaited: the panel reads its store through `use()`, which React only lets settle inside an awaited act.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Close' })));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Personal access token' })).toBeTruthy());
    expect(view.location()).toBe('/users/settings/personalAccessToken');
  }, 30_000);

  it('loads its store with the section (lazy factory, edition flags from the core); a 5xx shows only the notice', async () => {
    const backend = tokenBackend({
      tokens: [testToken('a', { name: 'only one' })],
      fail: (c) => (c.method === 'DELETE' ? 503 : undefined),
    });
    const view = await renderWithCore(<TokensPanel />, {
      backend,
      features: { legacyTokens: true, privateDeployment: false },
      route: '/users/settings/personalAccessToken',
    });
    expect(await screen.findByText('only one')).toBeTruthy();
    // The factory read the legacy flag from the core: the list came through the legacy call.
    expect(backend.calls[0]).toMatchObject({ path: '/users/ajax/v1/tokens:batch', body: { user_id: 'u1' } });
    expect((await view.root.store('accessTokens')).legacy).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    // The confirmation brings its own Delete button.
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Delete' })).toHaveLength(2));
    await act(async () => fireEvent.click(screen.getAllByRole('button', { name: 'Delete' })[1]));
    await waitFor(() => expect(backend.notices).toHaveLength(1));
    expect(backend.notices[0]).toMatchObject({ title: 'System exception, please try again', requestId: 'r1' });
    expect(screen.queryByText(/Deletion failed/)).toBeNull();
    expect(screen.getByText('only one')).toBeTruthy();
  }, 30_000);
});
