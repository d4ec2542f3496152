import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeRoute } from '../../../tests/kit/fake-backend';
import { renderWithCore } from '../../../tests/kit/web';
import ThirdPartyPage from './ThirdPartyPage';

async function show(identities: FakeRoute) {
  const backend = fakeBackend({ 'GET /individual/proxy/my/identities': identities });
  // The section's store loads with the page, through the plugin's lazy factory.
  const view = await renderWithCore(<ThirdPartyPage />, { backend, route: '/users/settings/third-party' });
  return { ...view, store: () => view.root.store('thirdParty') };
}

describe('third-party page', () => {
  it('shows the synchronised account per credential and the empty entries', async () => {
    const { store } = await show(
      ok({
        results: [
          { id: '1', provider: 'feishu', credential: 'feishu', open_id: 'ou_9', name: 'Feishu', created_at: '' },
          { id: '2', provider: 'idp', credential: 'idp:corp', open_id: 'x', name: 'Corp', created_at: '' },
          { id: '3', provider: 'wecom', credential: 'wecom', open_id: 'wm_7', name: 'WeCom', created_at: '' },
        ],
      }),
    );
    expect(await screen.findByText('Synchronized account ou_9')).toBeTruthy();
    // DingTalk and the API synchronisation have none; a directory identity is no third-party entry.
    expect(screen.getAllByText('No synchronization account')).toHaveLength(2);
    expect(screen.getByText('API synchronization')).toBeTruthy();
    expect(screen.getByTestId('third-party-feishu').textContent).toContain('Feishu (Lark)');
    const wecom = screen.getByTestId('third-party-wecom').textContent;
    expect(wecom).toContain('WeCom');
    expect(wecom).toContain('Synchronized account wm_7');
    expect(Object.keys((await store()).credentials)).toEqual(['feishu', 'idp:corp', 'wecom']);
  });

  it('names the entries in Chinese', async () => {
    const backend = fakeBackend({ 'GET /individual/proxy/my/identities': ok({ results: [] }) });
    await renderWithCore(<ThirdPartyPage />, { backend, locale: 'zh_CN' });
    expect(await screen.findByText('企业微信')).toBeTruthy();
    expect(screen.getByText('飞书')).toBeTruthy();
    expect(screen.getByText('钉钉')).toBeTruthy();
    expect(screen.getAllByText('无同步账号')).toHaveLength(4);
  });

  it('says the system is abnormal when the call fails, next to the central notice with the requestId', async () => {
    const { store, backend } = await show(serviceError(500, 'SystemError', 'x', 'req-9'));
    expect(await screen.findByText('Something went wrong, please try again')).toBeTruthy();
    expect((await store()).identities).toEqual([]);
    expect((await store()).loading).toBe(false);
    expect(backend.notices.map((n) => n.requestId)).toEqual(['req-9']);
  });

  it('shows the bindings the page brought in its first render and asks nothing; a malformed one is asked for', async () => {
    const IDENTITIES = 'GET /individual/proxy/my/identities';
    const binding = {
      id: '1',
      provider: 'dingtalk',
      credential: 'dingtalk',
      open_id: 'd_1',
      name: 'DingTalk',
      created_at: '',
    };
    const backend = fakeBackend({ [IDENTITIES]: ok({ results: [] }) });
    await renderWithCore(<ThirdPartyPage />, {
      backend,
      route: '/users/settings/third-party',
      pageData: { 'third-party': { identities: { results: [binding] } } },
    });
    expect(screen.getByText('Synchronized account d_1')).toBeTruthy();
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(backend.callsTo(IDENTITIES)).toHaveLength(0);
    cleanup();
    for (const bad of [{ results: [{ ...binding, open_id: 7 }] }, { results: 'x' }, null]) {
      const b = fakeBackend({ [IDENTITIES]: ok({ results: [] }) });
      await renderWithCore(<ThirdPartyPage />, { backend: b, pageData: { 'third-party': { identities: bad } } });
      await waitFor(() => expect(b.callsTo(IDENTITIES)).toHaveLength(1));
      expect(await screen.findAllByText('No synchronization account')).toHaveLength(4);
      cleanup();
    }
  });
});
