import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { message } from 'antd';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { useStore, useStores } from '../../../src/core/stores/root';
import type { Locale } from '../../../src/core/edition';
import { renderWithCore } from '../../../tests/kit/web';
import { PATHS } from '../api';
import { CredentialHealthSection } from './CredentialHealthSection';
import { securityBackend, testHealthItem, type SecurityBackendOptions } from '../test-backend';

const NOW = Date.parse('2026-11-27T09:05:00.000Z');
const ROUTE = '/users/settings/security';

/** The part alone, as the page mounts it (its store from the page's store, toasts, the clock). */
const HealthOnly = observer(function HealthOnly() {
  const security = useStore('security');
  const [toast, holder] = message.useMessage();
  useEffect(() => {
    void security.health.load();
  }, [security]);
  return (
    <div data-testid="security">
      {holder}
      <CredentialHealthSection store={security.health} now={NOW} locale={useStores().session.locale} toast={toast} />
    </div>
  );
});

async function mount(options: SecurityBackendOptions, locale: Locale = 'en_US') {
  const backend = securityBackend(options);
  const view = await renderWithCore(<HealthOnly />, { backend, locale, route: ROUTE, path: ROUTE });
  const part = await screen.findByTestId('security-health', undefined, { timeout: 10_000 });
  await waitFor(() => expect(part.querySelector('.ant-spin-spinning')).toBeNull());
  return { ...view, backend, part };
}

/** The open dialog (antd renders it in a portal; a closed one stays in its leave state in the test's DOM). */
const openDialog = () =>
  waitFor(() => {
    const d = screen.queryAllByRole('dialog').find((x) => !/-leave\b/.test(x.className));
    if (!d) throw new Error('no dialog open');
    return d;
  });
const click = (el: HTMLElement) => act(async () => fireEvent.click(el));

const STALE_TOKEN = testHealthItem('t1', {
  name: 'old ci',
  marks: ['never-used', 'unused-90'],
  stale: true,
});
const EXPIRED_KEY = testHealthItem('k1', {
  kind: 'ssh-key',
  name: 'laptop',
  expiresAt: '2026-11-01T00:00:00.000Z',
  lastUse: { at: '2026-09-01T08:00:00.000Z', address: '192.0.2.7', client: 'git/2.39 (ssh)' },
  marks: ['unused-30', 'expired'],
  stale: true,
});
const FRESH_TOKEN = testHealthItem('t2', {
  name: 'deploy',
  expiresAt: '2026-12-01T00:00:00.000Z',
  lastUse: { at: '2026-11-27T08:00:00.000Z', address: '203.0.113.9', client: 'curl/8' },
  marks: ['expiring'],
});
const HERE = testHealthItem('s1', {
  kind: 'session',
  name: 'Chrome 131 · Windows',
  browser: { name: 'Chrome', version: '131', os: 'Windows' },
  expiresAt: '2026-11-27T09:35:00.000Z',
  lastUse: { at: '2026-11-27T09:04:00.000Z', address: '127.0.0.1', client: null },
  marks: [],
});

describe('credential health on the security page', () => {
  it('lists every kind with its marks as tags, counts them, and says what is stale', async () => {
    const { part } = await mount({ health: [HERE, FRESH_TOKEN, EXPIRED_KEY, STALE_TOKEN] });
    expect(within(part).getByRole('heading', { level: 2, name: 'Credential health' })).toBeTruthy();
    // Tokens first, then SSH keys, then sessions; the session in use says so.
    const names = within(part)
      .getAllByTestId('security-health-name')
      .map((n) => n.textContent);
    expect(names.filter((n, i) => names.indexOf(n) === i)).toEqual([
      'deploy',
      'old ci',
      'laptop',
      'Chrome 131 on Windows',
    ]);
    const marks = [...part.querySelectorAll('[data-testid="security-health-mark"]')].map((m) => m.textContent);
    expect(new Set(marks)).toEqual(
      new Set(['Expires within 7 days', 'Never used', 'Unused for 90+ days', 'Unused for 30+ days', 'Expired']),
    );
    expect(within(part).getAllByText('This device').length).toBeGreaterThan(0);
    expect(within(part).getByTestId('security-health-stale-count').textContent).toBe('2 stale credentials');
    expect(
      within(part)
        .getAllByTestId('security-health-count')
        .map((c) => c.textContent),
    ).toEqual([
      'Expired: 1',
      'Expires within 7 days: 1',
      'Unused for 90+ days: 1',
      'Unused for 30+ days: 1',
      'Never used: 1',
    ]);
    expect(within(part).getAllByText('192.0.2.7').length).toBeGreaterThan(0);
  });

  it('"Revoke all stale" names what goes, revokes it, and then says nothing is stale', async () => {
    const { part, backend } = await mount({ health: [HERE, FRESH_TOKEN, EXPIRED_KEY, STALE_TOKEN] });
    await click(within(part).getByTestId('security-health-revoke'));
    const dialog = await openDialog();
    expect(dialog.querySelector('.ant-modal-title')?.textContent).toBe('Revoke 2 stale credentials?');
    expect([...dialog.querySelectorAll('[data-testid="security-health-going"] li')].map((l) => l.textContent)).toEqual([
      'old ci',
      'laptop',
    ]);
    expect(dialog.textContent).toContain('Personal access token (1)');
    expect(dialog.textContent).toContain('SSH key (1)');
    await click(within(dialog).getByRole('button', { name: /Revoke$/ }));
    await waitFor(() => expect(within(part).queryByTestId('security-health-nothing-stale')).toBeTruthy());
    expect(within(part).getByTestId('security-health-nothing-stale').textContent).toBe(
      'Nothing stale: everything was used within the last 30 days and nothing has expired.',
    );
    expect(within(part).queryByTestId('security-health-revoke')).toBeNull();
    expect(await screen.findByText('2 stale credentials revoked')).toBeTruthy();
    // The page named what it showed; the keyboard goes on from the part's title.
    const call = backend.calls.find((c) => c.method === 'POST' && c.path === PATHS.revokeStale);
    expect(call?.body).toEqual({
      items: [
        { kind: 'token', id: 't1' },
        { kind: 'ssh-key', id: 'k1' },
      ],
    });
    expect(document.activeElement?.id).toBe('security-health-title');
  });

  it('one used meanwhile stays, and the page says so', async () => {
    const { part } = await mount({ health: [HERE, EXPIRED_KEY, STALE_TOKEN], usedMeanwhile: ['t1'] });
    await click(within(part).getByTestId('security-health-revoke'));
    await click(within(await openDialog()).getByRole('button', { name: /Revoke$/ }));
    expect(await screen.findByText('1 stale credential revoked')).toBeTruthy();
    expect(await screen.findByText('1 credential was used meanwhile and stays')).toBeTruthy();
  });

  it('in Chinese; nothing at all; a failed load offers to try again', async () => {
    const zh = await mount({ health: [STALE_TOKEN] }, 'zh_CN');
    expect(within(zh.part).getByRole('heading', { level: 2 }).textContent).toBe('凭证健康');
    expect(within(zh.part).getByTestId('security-health-revoke').textContent).toBe('吊销全部闲置凭证（1）');
    expect(
      within(zh.part)
        .getAllByTestId('security-health-count')
        .map((c) => c.textContent),
    ).toEqual(['90 天以上未使用：1', '从未使用：1']);
    cleanup();

    const empty = await mount({ health: [] });
    expect(within(empty.part).getByText('No credentials or sessions')).toBeTruthy();
    expect(within(empty.part).queryByTestId('security-health-summary')).toBeNull();
    cleanup();

    let failing = true;
    const failed = await mount({
      health: [HERE],
      fail: (call) => (failing && call.path === PATHS.credentialHealth ? { status: 503, code: 'Down' } : undefined),
    });
    expect(within(failed.part).getByRole('alert').textContent).toContain(
      'Loading the credential health failed, please try again',
    );
    failing = false;
    await click(within(failed.part).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(failed.part).queryByRole('alert')).toBeNull());
    expect(within(failed.part).getByTestId('security-health-nothing-stale')).toBeTruthy();
  });
});
