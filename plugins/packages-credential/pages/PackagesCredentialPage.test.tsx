import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeBackend, ok } from '../../../tests/kit/fake-backend';
import { renderWithCore } from '../../../tests/kit/web';
import type { PackagesUserInfo } from '../contract';
import { PackagesCredentialStore } from '../store';
import PackagesCredentialPage from './PackagesCredentialPage';

const BASE = '/uiless/proxy/package/api/external/users';
const lastUse = { at: '2026-03-02T10:15:00.000Z', address: '203.0.113.7', client: 'npm/10.8.2 node/v20.20.2' };
const info: PackagesUserInfo = { username: 'acct-alice', has_password: true, effective_at: null, last_use: lastUse };

async function mount(answer: PackagesUserInfo) {
  const backend = fakeBackend({
    [`GET ${BASE}/userInfo`]: ok(answer),
    [`POST ${BASE}/user/password`]: ok({ ...answer, password: 'New-Pw_42', effective_at: '2026-03-03T00:00:10.000Z' }),
  });
  const store = new PackagesCredentialStore(backend.client);
  await renderWithCore(<PackagesCredentialPage />, { backend, stores: { packagesCredential: store } });
  return screen.findByTestId('packages-last-use');
}

describe('artifact repository credential page', () => {
  it("shows the password's last use: time, address and client", async () => {
    const line = await mount(info);
    expect(line.textContent).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d from 203\.0\.113\.7/);
    expect(line.querySelector('time')?.getAttribute('dateTime')).toBe(lastUse.at);
    expect(screen.getByTestId('packages-last-use-client').textContent).toBe(lastUse.client);
    expect(screen.getByText('Last used').tagName).toBe('DT');
  });

  it('says never used, without a client line', async () => {
    const line = await mount({ ...info, last_use: null });
    expect(line.textContent).toBe('Never used');
    expect(screen.queryByTestId('packages-last-use-client')).toBeNull();
  });

  it('shows a new password once with ready-to-paste snippets for its registries', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await mount(info);
    await act(async () => fireEvent.click(screen.getByTestId('packages-reset')));
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Generate' })));
    await screen.findByTestId('packages-new-password');
    await screen.findByTestId('credential-snippets', {}, { timeout: 15_000 });
    // The test edition (vpc) names no artifact host: the page's own.
    const host = window.location.host;
    expect(screen.getByTestId('snippet-npmrc-text').textContent).toContain(`//${host}/npm/:username=acct-alice\n`);
    expect(screen.getByTestId('snippet-npmrc-text').textContent).toContain(`:_password=${btoa('New-Pw_42')}`);
    await act(async () => fireEvent.click(screen.getByRole('tab', { name: 'Docker' })));
    const docker = screen.getByTestId('snippet-docker-text').textContent;
    expect(docker).toBe(`printf '%s' New-Pw_42 | docker login --username acct-alice --password-stdin ${host}`);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy Docker' })));
    expect(writeText).toHaveBeenCalledWith(docker);
    await waitFor(() => expect(screen.getByTestId('snippet-docker-status').textContent).toBe('Copied'));
  });
});
