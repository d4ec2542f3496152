import { render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import { RequestError, type RequestClient } from '../../../src/core/request';
import { StoresProvider, type RootStore } from '../../../src/core/stores/root';
import en from '../messages/en_US.json';
import { ThirdPartyStore } from '../store';
import ThirdPartyPage from './ThirdPartyPage';

function show(get: ReturnType<typeof vi.fn>) {
  const thirdParty = new ThirdPartyStore({ get } as unknown as RequestClient);
  render(
    <IntlProvider locale="en-US" messages={en}>
      <StoresProvider value={{ thirdParty } as unknown as RootStore}>
        <ThirdPartyPage />
      </StoresProvider>
    </IntlProvider>,
  );
  return thirdParty;
}

describe('third-party page', () => {
  it('shows the synchronised account per credential and the empty entries', async () => {
    const store = show(
      vi.fn().mockResolvedValue([
        null,
        {
          results: [
            { id: '1', provider: 'feishu', credential: 'feishu', open_id: 'ou_9', name: 'Feishu', created_at: '' },
            { id: '2', provider: 'idp', credential: 'idp:corp', open_id: 'x', name: 'Corp', created_at: '' },
          ],
        },
      ]),
    );
    expect(await screen.findByText('Synchronized account ou_9')).toBeTruthy();
    expect(screen.getAllByText('No synchronization account')).toHaveLength(2);
    expect(screen.getByText('API synchronization')).toBeTruthy();
    expect(Object.keys(store.credentials)).toEqual(['feishu', 'idp:corp']);
  });

  it('says the system is abnormal when the call fails', async () => {
    const store = show(
      vi.fn().mockResolvedValue([new RequestError({ status: 500, message: 'x', url: '/', method: 'GET' }), undefined]),
    );
    expect(await screen.findByText('The system is abnormal, please retry')).toBeTruthy();
    expect(store.identities).toEqual([]);
    expect(store.loading).toBe(false);
  });
});
