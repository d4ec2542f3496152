import { render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import type { RequestClient } from '../../../src/core/request';
import { StoresProvider, type RootStore } from '../../../src/core/stores/root';
import en from '../messages/en_US.json';
import zh from '../messages/zh_CN.json';
import { IdentityProvidersStore } from '../store';
import IdentityProviderPage from './IdentityProviderPage';

function show(results: unknown[], locale: 'en-US' | 'zh-CN' = 'en-US') {
  const identityProviders = new IdentityProvidersStore({
    get: vi.fn().mockResolvedValue([null, { results }]),
  } as unknown as RequestClient);
  const view = render(
    <IntlProvider locale={locale} messages={locale === 'en-US' ? en : zh}>
      <StoresProvider value={{ identityProviders } as unknown as RootStore}>
        <IdentityProviderPage />
      </StoresProvider>
    </IntlProvider>,
  );
  return { identityProviders, view };
}

describe('identity-provider page', () => {
  it('says no identity source is bound until one is (third-party bindings do not count)', async () => {
    const { view } = show([
      { id: '1', provider: 'dingtalk', credential: 'dingtalk', open_id: 'd', name: 'DingTalk', created_at: '' },
    ]);
    const text = async () =>
      (await screen.findByTestId('identity-provider-empty')).querySelector('.ant-empty-description')?.textContent;
    expect(await text()).toBe('No identity source bound, how to bind?');
    view.unmount();
    show([], 'zh-CN');
    expect(await text()).toBe('未绑定身份源，如何绑定？');
  });

  it('lists the bound identity sources', async () => {
    const { identityProviders } = show([
      {
        id: '2',
        provider: 'idp',
        credential: 'idp:corp ldap',
        open_id: 'alice',
        name: 'Corp LDAP',
        created_at: '2026-01-01T00:00:00.000Z',
      },
    ]);
    expect(await screen.findByText('Corp LDAP')).toBeTruthy();
    expect(screen.getByTestId('identity-provider-item').textContent).toContain('Account alice');
    expect(identityProviders.bindings).toHaveLength(1);
  });
});
