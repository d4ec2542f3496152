import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, ok, serviceError, type FakeRequest } from '../../../tests/kit/fake-backend';
import { renderWithCore } from '../../../tests/kit/web';
import { CREDENTIAL_USES_PATH } from '../../../schemas/credential-kinds';
import type { CredentialUseView } from '../credential-uses';
import { LazyCredentialUsesDrawer } from './LazyCredentialUsesDrawer';

const ROUTE = `GET ${CREDENTIAL_USES_PATH}`;

const use = (n: number, extra: Partial<CredentialUseView> = {}): CredentialUseView => ({
  id: `u${String(n).padStart(3, '0')}`,
  at: new Date(Date.UTC(2026, 2, 2, 10, 0) - n * 60_000).toISOString(),
  address: `203.0.113.${n}`,
  client: 'ci-runner/2.1',
  action: 'GET /oapi/v1/platform/user',
  outcome: 'ok',
  reason: null,
  ...extra,
});

async function open(route: (req: FakeRequest) => ReturnType<typeof ok>, locale: 'en_US' | 'zh_CN' = 'en_US') {
  const backend = fakeBackend({ [ROUTE]: route });
  const r = await renderWithCore(
    <LazyCredentialUsesDrawer open onClose={() => {}} kind="token" id="t1" name="ci token" />,
    { backend, locale },
  );
  // The drawer's chunk loads on first opening (cold in the first test).
  const drawer = await screen.findByTestId('credential-uses', {}, { timeout: 15_000 });
  return { ...r, drawer };
}

describe('the credential usage timeline', () => {
  it('shows each use: outcome in words, time, action, address and client; refused ones with their reason', async () => {
    const { drawer, backend } = await open(() =>
      ok({
        uses: [
          use(1),
          use(2, { outcome: 'refused', reason: 'scope', client: null }),
          use(3, { outcome: 'refused', reason: 'something-new' }),
        ],
        next: null,
      }),
    );
    const rows = await within(drawer).findAllByTestId('credential-use');
    expect(backend.calls[0].query).toEqual({ kind: 'token', id: 't1' });
    expect(within(drawer).getByText('Uses of ci token')).toBeTruthy();
    expect(rows.map((r) => within(r).getByTestId('use-outcome').textContent)).toEqual([
      'Allowed',
      'Refused: permission not granted',
      'Refused',
    ]);
    expect(within(rows[0]).getByTestId('use-address').textContent).toBe('203.0.113.1');
    expect(within(rows[0]).getByTestId('use-client').textContent).toBe('ci-runner/2.1');
    expect(within(rows[0]).getByText('GET /oapi/v1/platform/user')).toBeTruthy();
    expect(rows[0].querySelector('time')?.getAttribute('dateTime')).toBe(use(1).at);
    expect(within(rows[1]).getByText('Not given')).toBeTruthy();
    expect(within(drawer).getByText('No older uses in the last 90 days')).toBeTruthy();
  });

  it('loads older pages with the cursor, the keyboard going on from the first older row', async () => {
    const { drawer, backend } = await open((req) =>
      req.query.before === 'c1' ? ok({ uses: [use(3)], next: null }) : ok({ uses: [use(1), use(2)], next: 'c1' }),
    );
    const older = await within(drawer).findByTestId('credential-uses-older');
    await act(async () => fireEvent.click(older));
    await waitFor(() => expect(within(drawer).getAllByTestId('credential-use')).toHaveLength(3));
    expect(backend.calls.map((c) => c.query.before)).toEqual([undefined, 'c1']);
    await waitFor(() => expect(document.activeElement).toBe(within(drawer).getAllByTestId('credential-use')[2]));
    expect(within(drawer).queryByTestId('credential-uses-older')).toBeNull();
  });

  it('keeps the rows shown when an older page fails, and offers it again', async () => {
    let fail = true;
    const { drawer } = await open((req) =>
      req.query.before
        ? fail
          ? serviceError(503, 'SystemError')
          : ok({ uses: [use(2)], next: null })
        : ok({ uses: [use(1)], next: 'c1' }),
    );
    await act(async () => fireEvent.click(await within(drawer).findByTestId('credential-uses-older')));
    expect(await within(drawer).findByText('Older uses could not be loaded. Please try again.')).toBeTruthy();
    expect(within(drawer).getAllByTestId('credential-use')).toHaveLength(1);
    fail = false;
    await act(async () => fireEvent.click(within(drawer).getByTestId('credential-uses-older')));
    await waitFor(() => expect(within(drawer).getAllByTestId('credential-use')).toHaveLength(2));
  });

  it('says when there is nothing in 90 days, in both languages', async () => {
    const en = await open(() => ok({ uses: [], next: null }));
    expect((await within(en.drawer).findByTestId('credential-uses-empty')).textContent).toContain(
      'No uses in the last 90 days',
    );
    cleanup();
    const zh = await open(() => ok({ uses: [], next: null }), 'zh_CN');
    expect((await within(zh.drawer).findByTestId('credential-uses-empty')).textContent).toContain(
      '最近 90 天内没有使用记录',
    );
    expect(within(zh.drawer).getByText('ci token 的使用记录')).toBeTruthy();
  });

  it('says a failed load and retries it', async () => {
    let fail = true;
    const { drawer } = await open(() => (fail ? serviceError(404, 'NotFound') : ok({ uses: [use(1)], next: null })));
    const alert = await within(drawer).findByRole('alert');
    expect(alert.textContent).toContain('The uses could not be loaded.');
    fail = false;
    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: 'Retry' })));
    expect(await within(drawer).findAllByTestId('credential-use')).toHaveLength(1);
  });
});
