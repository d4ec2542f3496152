import { act, fireEvent, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReauthState } from '../../schemas/reauth';
import { reauthenticate } from './reauth';
import { createRequestClient, type RequestClient } from './request/client';
import { RequestError } from './request/errors';
import enUS from './messages/en_US.json';

// Each test's dialog goes before the next test: antd removes a closed dialog once its zoom-out has ended, and
// happy-dom runs no animation. Ended here as a browser would end it; left, the removal rendered after the file, with
// no window ("window is not defined" in CI).
afterEach(async () => {
  Modal.destroyAll();
  await vi.waitFor(() => {
    for (const moving of document.querySelectorAll('.ant-modal, .ant-modal-mask')) fireEvent.animationEnd(moving);
    expect(document.querySelector('.ant-modal')).toBeNull();
  });
});

/** Opens the dialog; resolves with its body and the outcome. */
async function open(client: RequestClient) {
  const outcome: { proved?: boolean } = {};
  void reauthenticate(client, translate, asked).then((r) => (outcome.proved = r));
  const body = await vi.waitFor(
    () => {
      const shown = document.querySelector<HTMLElement>('[data-testid="core-reauth"]');
      if (!shown) throw new Error('no dialog yet');
      return shown;
    },
    { timeout: 10_000 },
  );
  return { body, view: within(body), outcome };
}

const translate = (id: string) => (enUS as Record<string, string>)[id] ?? id;
const asked = new RequestError({ status: 403, message: 'prove it', url: '/x', method: 'POST', code: 'ReauthRequired' });

/** A client whose service answers the state, and each proof in turn from `proofs` (a status and body). */
function clientWith(state: ReauthState, proofs: Array<[number, unknown]>) {
  const bodies: unknown[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const json = (status: number, data: unknown) =>
      new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
    if (init.method === 'GET') return json(200, state);
    bodies.push(JSON.parse(String(init.body)));
    const [status, body] = proofs.shift()!;
    return json(status, body);
  }) as unknown as typeof globalThis.fetch;
  const client: RequestClient = createRequestClient({ fetch, csrfToken: 'page-token' });
  const setCsrf = vi.spyOn(client, 'setCsrfToken');
  return { client, bodies, setCsrf };
}

const base = { provider: null, directory: null, window_minutes: 10, fresh_until: null };

describe('the re-authentication dialog', () => {
  it("asks a directory account for its directory's password; a wrong one is said inline, the right one proves", async () => {
    const wrong = {
      status: 400,
      requestId: 'r',
      code: 'ReauthPasswordIncorrect',
      message: 'The password is incorrect.',
    };
    const { client, bodies, setCsrf } = clientWith({ ...base, method: 'directory', directory: 'Example LDAP' }, [
      [400, wrong],
      [200, { csrf_token: 'rotated', fresh_until: '2026-11-27T10:10:00.000Z' }],
    ]);
    const { body, view, outcome } = await open(client);
    const field = view.getByLabelText('Example LDAP password');
    expect(body.closest('.ant-modal')?.textContent).toContain('Confirm it is you');
    fireEvent.change(field, { target: { value: 'Wrong#1' } });
    await act(async () => {
      fireEvent.submit(body);
    });
    expect((await view.findByRole('alert')).textContent).toBe('The password is incorrect.');
    expect(outcome.proved).toBeUndefined();
    fireEvent.change(field, { target: { value: 'Right#1' } });
    await act(async () => {
      fireEvent.submit(body);
    });
    await vi.waitFor(() => expect(outcome.proved).toBe(true));
    expect(bodies).toEqual([{ password: 'Wrong#1' }, { password: 'Right#1' }]);
    expect(setCsrf).toHaveBeenCalledWith('rotated');
  });

  it('says an empty password needs typing, and asks nothing of the service; Cancel hands back false', async () => {
    const { client, bodies } = clientWith({ ...base, method: 'password' }, []);
    const { body, view, outcome } = await open(client);
    expect(view.getByLabelText('Password')).toBeTruthy();
    await act(async () => {
      fireEvent.submit(body);
    });
    expect((await view.findByRole('alert')).textContent).toBe('Please enter the password');
    fireEvent.click(view.getByText('Cancel'));
    await vi.waitFor(() => expect(outcome.proved).toBe(false));
    expect(bodies).toEqual([]);
  });

  it('sends a third-party account to its provider with this page as next', async () => {
    const { client } = clientWith({ ...base, method: 'provider', provider: { id: 'lark', name: 'Lark' } }, []);
    const assign = vi.fn();
    const location = window.location;
    vi.stubGlobal('location', { ...location, pathname: '/users/settings/personalAccessToken', search: '?a=1', assign });
    try {
      const { view } = await open(client);
      fireEvent.click(view.getByText('Continue with Lark'));
      expect(assign).toHaveBeenCalledWith(
        `/users/reauth/oauth/lark?next=${encodeURIComponent('/users/settings/personalAccessToken?a=1')}`,
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
