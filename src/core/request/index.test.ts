import { afterEach, describe, expect, it, vi } from 'vitest';
import { getRequestClient, resetRequestClientForTests, setCurrentOrganizationId } from './index';

afterEach(() => {
  document.body.innerHTML = '';
  resetRequestClientForTests();
  vi.unstubAllGlobals();
});

describe('the app client', () => {
  it('is created once from the page configuration (host, CSRF, app id, organisation)', async () => {
    document.body.innerHTML = `<script id="page-config" type="application/json">${JSON.stringify({
      host: 'https://devops.example.com/',
      csrfToken: 'c1',
      appId: 'a1',
      organizationId: 'o1',
    })}</script>`;
    const fetchMock = vi.fn(
      async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const client = getRequestClient();
    expect(getRequestClient()).toBe(client);
    await client.get('/uiless/api/apps/1');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://devops.example.com/uiless/api/apps/1');
    expect(init.headers).toMatchObject({ 'X-CSRF-Token': 'c1', 'x-app-id': 'a1', 'x-tenant-id': 'o1' });
    setCurrentOrganizationId('o2');
    await client.get('/uiless/api/apps/1');
    expect((fetchMock.mock.calls[1] as unknown as [string, RequestInit])[1].headers).toMatchObject({
      'x-tenant-id': 'o2',
    });
  });
});
