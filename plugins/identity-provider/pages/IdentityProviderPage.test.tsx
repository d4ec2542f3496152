import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, ok } from '../../../tests/kit/fake-backend';
import { renderWithCore } from '../../../tests/kit/web';
import IdentityProviderPage from './IdentityProviderPage';

async function show(results: unknown[], locale: 'en_US' | 'zh_CN' = 'en_US') {
  const backend = fakeBackend({ 'GET /individual/proxy/my/identities': ok({ results }) });
  return renderWithCore(<IdentityProviderPage />, { backend, locale });
}

describe('identity-provider page', () => {
  it('says no identity source is bound until one is (third-party bindings do not count)', async () => {
    const view = await show([
      { id: '1', provider: 'dingtalk', credential: 'dingtalk', open_id: 'd', name: 'DingTalk', created_at: '' },
    ]);
    const text = async () =>
      (await screen.findByTestId('identity-provider-empty')).querySelector('.ant-empty-description')?.textContent;
    expect(await text()).toBe('No identity provider linked. How to link one?');
    view.unmount();
    await show([], 'zh_CN');
    expect(await text()).toBe('未绑定身份源，如何绑定？');
  });

  it('lists the bound identity sources', async () => {
    const { root } = await show([
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
    expect(screen.getByTestId('identity-provider-item').textContent).toContain('Identity ID: alice');
    expect((await root.store('identityProviders')).bindings).toHaveLength(1);
  });

  it('shows a directory identity by the directory’s name and bind date, its entry UUID only as secondary text', async () => {
    const uuid = '5f0c8a9e-3b1d-4c2e-9a7f-1d2e3f4a5b6c';
    const directory = {
      id: '3',
      provider: 'idp',
      credential: 'directory:d1',
      open_id: uuid,
      name: 'Corp Windows AD',
      created_at: '2026-03-04T10:00:00.000Z',
    };
    const view = await show([directory]);
    const item = await screen.findByTestId('identity-provider-item');
    const lines = [...item.querySelectorAll('.ant-typography')].map((e) => e.textContent);
    expect(lines).toEqual([
      'Corp Windows AD',
      expect.stringMatching(/^Linked on 2026-03-0[45]$/),
      `Identity ID: ${uuid}`,
    ]);
    view.unmount();
    await show([directory], 'zh_CN');
    const zh = [...(await screen.findByTestId('identity-provider-item')).querySelectorAll('.ant-typography')];
    expect(zh.map((e) => e.textContent)).toEqual([
      'Corp Windows AD',
      expect.stringMatching(/^绑定于 2026-03-0[45]$/),
      `身份标识：${uuid}`,
    ]);
  });
});
