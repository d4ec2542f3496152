import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoresProvider, type RootStore } from '../../../src/core/stores/root';
import en from '../messages/en_US.json';
import { AccessTokensStore } from '../store';
import { fakeTokenService, testToken } from '../test-backend';
import { LegacyTokensModal } from './LegacyTokensModal';
import { TokensPanel } from './TokensPanel';

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function mount(store: AccessTokensStore, ui: React.ReactNode, at = '/users/settings/personalAccessToken') {
  const root = { accessTokens: store } as unknown as RootStore;
  return render(
    <IntlProvider locale="en-US" messages={en}>
      <StoresProvider value={root}>
        <MemoryRouter initialEntries={[at]}>
          <Routes>
            <Route
              path="/users/settings/personalAccessToken/*"
              element={
                <>
                  {ui}
                  <Where />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </StoresProvider>
    </IntlProvider>,
  );
}

afterEach(cleanup);

describe('personal access token page', () => {
  it('empty state, create drawer on /create with scopes on demand, save only when valid, one-time value', async () => {
    const svc = fakeTokenService();
    const store = new AccessTokensStore(svc.client);
    mount(store, <TokensPanel />);
    const emptyCreate = await screen.findByRole('button', { name: 'Create token', hidden: false });
    expect(screen.getByText('No access token')).toBeTruthy();
    expect(svc.calls.some((c) => c.path.endsWith('tokens:scopes'))).toBe(false);

    fireEvent.click(emptyCreate);
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/users/settings/personalAccessToken/create'),
    );
    await screen.findByText('Create personal access token');
    await waitFor(() => expect(svc.calls.some((c) => c.path.endsWith('tokens:scopes'))).toBe(true));
    const save = () => screen.getByTestId('token-save') as HTMLButtonElement;
    expect(save().disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  deploy  ' } });
    fireEvent.click(screen.getByText('30 days'));
    expect(save().disabled).toBe(true);
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
    expect(post?.body).toMatchObject({ name: 'deploy', description: '', token_scopes: ['base:user:read'] });
    const expiresAt = new Date((post?.body as { expires_at: string }).expires_at);
    expect(expiresAt.getHours()).toBe(23);
    expect(expiresAt.getMinutes()).toBe(59);
    expect(expiresAt.getSeconds()).toBe(57);
    expect(screen.getByTestId('where').textContent).toBe('/users/settings/personalAccessToken');

    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const value = screen.getByTestId('token-value').textContent;
    await act(async () => fireEvent.click(screen.getByTestId('token-copy')));
    expect(writeText).toHaveBeenCalledWith(value);
    await waitFor(() => expect(screen.queryByTestId('token-created')).toBeNull());
    expect(await screen.findByText('The token has been copied')).toBeTruthy();
  }, 30_000);

  it('expired tokens are tagged and cannot be edited; others show their state', async () => {
    const soon = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString();
    const svc = fakeTokenService({
      tokens: [
        testToken('old', { name: 'old one', expired: true, expires_at: '2020-01-01T00:00:00.000Z' }),
        testToken('soon', { name: 'soon one', expires_at: soon }),
      ],
    });
    mount(new AccessTokensStore(svc.client), <TokensPanel />);
    await screen.findByText('old one');
    expect(screen.getByText('Expired')).toBeTruthy();
    expect(screen.getByText('About to expire')).toBeTruthy();
    expect(screen.getByText('2 tokens')).toBeTruthy();
    const edits = screen.getAllByRole('button', { name: 'Edit' }) as HTMLButtonElement[];
    expect(edits.map((b) => b.disabled)).toEqual([true, false]);
  }, 30_000);

  it('legacy screen: a modal titled personal access token, listed through tokens:batch', async () => {
    const svc = fakeTokenService({ tokens: [testToken('a', { name: 'legacy one' })] });
    const store = new AccessTokensStore(svc.client, { legacy: true, userId: () => 'u1' });
    mount(store, <LegacyTokensModal />, '/users/settings/personalAccessToken');
    expect(await screen.findByText('legacy one')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(screen.getAllByText('Personal access token').length).toBeGreaterThan(0);
    expect(svc.calls[0]).toMatchObject({ path: '/users/ajax/v1/tokens:batch', body: { user_id: 'u1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Personal access token' })).toBeTruthy());
    expect(screen.getByTestId('where').textContent).toBe('/users/settings/personalAccessToken');
  }, 30_000);
});
