import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeRoute } from '../../../tests/kit/fake-backend';
import { renderWithCore } from '../../../tests/kit/web';
import ThirdPartyPage from './ThirdPartyPage';

afterEach(cleanup);

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
        ],
      }),
    );
    expect(await screen.findByText('Synchronized account ou_9')).toBeTruthy();
    expect(screen.getAllByText('No synchronization account')).toHaveLength(2);
    expect(screen.getByText('API synchronization')).toBeTruthy();
    expect(Object.keys((await store()).credentials)).toEqual(['feishu', 'idp:corp']);
  });

  it('says the system is abnormal when the call fails, next to the central notice with the requestId', async () => {
    const { store, backend } = await show(serviceError(500, 'SystemError', 'x', 'req-9'));
    expect(await screen.findByText('The system is abnormal, please retry')).toBeTruthy();
    expect((await store()).identities).toEqual([]);
    expect((await store()).loading).toBe(false);
    expect(backend.notices.map((n) => n.requestId)).toEqual(['req-9']);
  });
});
