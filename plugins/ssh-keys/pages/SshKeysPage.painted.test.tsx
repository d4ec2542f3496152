import { cleanup, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBackend } from '../../../tests/kit/fake-backend';
import { paintAndHydrate } from '../../../tests/kit/hydration';
import { rootStoreWithPageData, setViewport } from '../../../tests/kit/web';
import type { SshKey } from '../contract';
import SshKeysPage from './SshKeysPage';

// The section comes painted (plugins/ssh-keys/index.ts `firstScreen`): the service renders it with the keys the page
// brought, the browser hydrates that. The window's width and the browser's time zone must not change that render.

const key = (id: string, extra: Partial<SshKey> = {}): SshKey => ({
  id,
  name: `key ${id}`,
  key: 'ssh-ed25519 AAAA x',
  key_type: 'ssh-ed25519',
  fingerprint: `SHA256:${id}`,
  scope: 'read_write',
  expires_at: null,
  last_used_at: null,
  last_use: null,
  created_at: '2026-03-01T23:30:00.000Z',
  expired: false,
  ...extra,
});
const keys = [
  key('a', {
    name: 'work laptop',
    last_used_at: '2026-03-02T10:15:00.000Z',
    last_use: { at: '2026-03-02T10:15:00.000Z', address: '203.0.113.5', client: 'git/2.39.5' },
    expires_at: '2099-01-01T00:00:00.000Z',
  }),
  key('b', { name: 'old desktop', expired: true, expires_at: '2026-02-01T00:00:00.000Z', scope: 'read_only' }),
];

/** The page painted by a service in UTC, then hydrated by a browser at `width` px in Kolkata. */
async function painted(width: number) {
  const zone = process.env.TZ;
  process.env.TZ = 'UTC';
  const brought = { 'ssh-keys': { keys } };
  const service = rootStoreWithPageData({ sshKeys: () => import('../store') }, fakeBackend(), brought);
  await service.store('sshKeys');
  const backend = fakeBackend();
  const browser = rootStoreWithPageData({ sshKeys: () => import('../store') }, backend, brought);
  try {
    const page = await paintAndHydrate(
      { ui: <SshKeysPage />, route: '/users/settings/ssh' },
      { service, browser },
      () => {
        process.env.TZ = 'Asia/Kolkata';
        setViewport(width);
      },
    );
    return { ...page, backend };
  } finally {
    process.env.TZ = zone;
  }
}

describe('the SSH key section, painted by the service', () => {
  afterEach(() => {
    cleanup();
    document.body.innerHTML = '';
    setViewport(1024);
  });

  for (const width of [375, 1280]) {
    it(`holds title, description and keys, and hydrates at ${width} px without a mismatch or a call`, async () => {
      const { html, container, mismatches, backend } = await painted(width);
      expect(html).toContain('SSH keys');
      expect(html).toContain('SSH keys let this computer clone, pull and push code repositories without a password.');
      expect(html).toContain('work laptop');
      expect(mismatches).toEqual([]);
      expect(backend.calls).toEqual([]);
      // Once hydrated: the variant the window wants, the times in the browser's zone (UTC+5:30).
      const view = within(container);
      expect(container.querySelector('table') === null).toBe(width < 992);
      expect(view.getAllByTestId('ssh-key-name').map((n) => n.textContent)).toEqual(['work laptop', 'old desktop']);
      expect(view.getAllByText('2026-03-02 05:00')).toHaveLength(2);
      // Last used: how long ago (the browser's clock) and from where; the exact time is the <time>'s.
      const [used, never] = view.getAllByTestId('ssh-key-last-use');
      expect(used.textContent).toMatch(/ ago · 203\.0\.113\.5$/);
      expect(used.querySelector('time')?.getAttribute('dateTime')).toBe('2026-03-02T10:15:00.000Z');
      expect(never.textContent).toBe('Never used');
    });
  }
});
