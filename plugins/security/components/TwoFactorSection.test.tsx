import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { message } from 'antd';
import { runInAction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useStore, useStores } from '../../../src/core/stores/root';
import type { Locale } from '../../../src/core/edition';
import { renderWithCore } from '../../../tests/kit/web';
import { PATHS } from '../api';
import { SecurityView } from '../pages/SecurityPage';
import { TwoFactorSection } from './TwoFactorSection';
import {
  securityBackend,
  TEST_REGISTRATION_OPTIONS,
  TEST_TOTP,
  testPasskey,
  testRecoveryCodes,
  testSession,
  type SecurityBackendOptions,
} from '../test-backend';

/** The browser's WebAuthn helper, mocked: a unit test has no authenticator (e2e uses Chromium's virtual one). */
const { startRegistration } = vi.hoisted(() => ({ startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({ startRegistration }));

const NOW = Date.parse('2026-11-27T09:05:00.000Z');
const clock = () => NOW;
const ROUTE = '/users/settings/security';
const HERE = testSession('s-here', { current: true });
const PHONE = testSession('s-phone');

/**
 * The part alone, as the page mounts it (its store and the sessions' from the page's store, toasts, the clock): the
 * rest of the page (tables of sessions and history) only slows a test of this part down.
 */
const TwoFactorOnly = observer(function TwoFactorOnly() {
  const security = useStore('security');
  const [toast, holder] = message.useMessage();
  useEffect(() => {
    void Promise.all([security.twoFactor.load(), security.sessions.load()]);
  }, [security]);
  return (
    <div data-testid="security">
      {holder}
      <TwoFactorSection
        store={security.twoFactor}
        sessions={security.sessions}
        now={NOW}
        locale={useStores().session.locale}
        toast={toast}
      />
    </div>
  );
});

async function mount(
  options: SecurityBackendOptions,
  { locale = 'en_US', page = false }: { locale?: Locale; page?: boolean } = {},
) {
  const backend = securityBackend(options);
  const ui = page ? <SecurityView clock={clock} /> : <TwoFactorOnly />;
  const view = await renderWithCore(ui, { backend, locale, route: ROUTE, path: ROUTE });
  await screen.findByTestId('security', undefined, { timeout: 10_000 });
  const part = screen.getByTestId('security-two-factor');
  await waitFor(() => expect(within(part).queryByTestId('security-two-factor-loading')).toBeNull());
  return { ...view, part };
}

/** The open confirmation (antd renders it in a portal). */
const popconfirm = () =>
  waitFor(() => {
    const el = document.querySelector('.ant-popconfirm:not(.ant-popover-hidden)');
    if (!el) throw new Error('no confirmation open');
    return el as HTMLElement;
  });
/**
 * The shown dialogs with that title: not by accessible name (a test renders antd's ids as one fixed id), and not one
 * leaving (no animation ends in the test's DOM, so a closed dialog stays in its leave state).
 */
const dialogsNamed = (name: string) =>
  screen
    .queryAllByRole('dialog')
    .filter((d) => d.querySelector('.ant-modal-title')?.textContent === name && !/-leave\b/.test(d.className));
/** The open dialog of that title. */
const dialogNamed = (name: string) =>
  waitFor(
    () => {
      const [d] = dialogsNamed(name);
      if (!d) throw new Error(`no dialog "${name}" open`);
      return d;
    },
    { timeout: 10_000 },
  );
/** That dialog has closed (hidden, or never mounted). */
const closed = (name: string) => waitFor(() => expect(dialogsNamed(name)).toHaveLength(0));
/** A button by its text (a button that was loading keeps the spinner's label in the test's DOM: no animation ends). */
const button = (within_: HTMLElement, text: string) =>
  within(within_).getByRole('button', { name: new RegExp(`(^|\\s)${text}$`) });
const click = (el: HTMLElement) => act(async () => fireEvent.click(el));

beforeEach(() => {
  startRegistration.mockReset();
  // happy-dom has no WebAuthn: the page offers passkeys only where the browser has it.
  Object.defineProperty(window, 'PublicKeyCredential', {
    value: function PublicKeyCredential() {},
    configurable: true,
  });
  Object.defineProperty(navigator, 'clipboard', {
    value: { writeText: vi.fn().mockResolvedValue(undefined) },
    configurable: true,
  });
});

describe('two-factor authentication on the security page', () => {
  it('first on the page; off: each method says how to start, an organization’s deadline is said', async () => {
    const { part } = await mount(
      { twoFactor: { required_by: { org: 'Acme', deadline: '2026-12-20T00:00:00.000Z' } } },
      { page: true },
    );
    // The first part of the page, above the sessions.
    const parts = [...screen.getByTestId('security').querySelectorAll('section')].map((s) => s.dataset.testid);
    expect(parts.slice(0, 2)).toEqual(['security-two-factor', 'security-sessions']);
    expect(within(part).getByRole('heading', { level: 2, name: 'Two-factor authentication' })).toBeTruthy();
    expect(within(part).getByTestId('security-two-factor-status').textContent).toBe('Off');
    expect(within(part).getByTestId('security-two-factor-required').textContent).toMatch(
      /^Acme requires two-factor authentication by 2026-12-\d\d \d\d:\d\dSet up an authenticator app or add a passkey/,
    );
    expect(within(part).getByRole('button', { name: 'Set up' })).toBeTruthy();
    expect(within(part).getByTestId('security-passkeys-empty').textContent).toBe('No passkeys or security keys yet.');
    expect(within(part).getByText('You get recovery codes when you add your first method.')).toBeTruthy();
    expect(within(part).queryByTestId('security-recovery-codes-new')).toBeNull();
  });

  it('an organization’s requirement the shell’s notice already names is said once (there)', async () => {
    const view = await mount({ twoFactor: { required_by: { org: 'Acme', deadline: '2026-11-20T00:00:00.000Z' } } });
    const required = () => within(view.part).queryByTestId('security-two-factor-required');
    expect(required()?.textContent).toMatch(/^Acme requires two-factor authenticationSet up an authenticator app/);
    await act(async () =>
      runInAction(() => {
        view.root.session.organizationNotice = 'second-factor-required';
        view.root.session.organizationNoticeName = 'Acme';
      }),
    );
    expect(required()).toBeNull();
    // Another organization's notice: this one's requirement is still said here.
    await act(async () => runInAction(() => (view.root.session.organizationNoticeName = 'Other')));
    expect(required()).not.toBeNull();
    // Turned on: the shell asks again whether the organization still refuses (its notice follows without a reload).
    const me = () => view.backend.calls.filter((c) => c.path === '/individual/proxy/me').length;
    const before = me();
    await click(within(view.part).getByTestId('security-totp-set-up'));
    const dialog = await dialogNamed('Set up an authenticator app');
    fireEvent.change(within(dialog).getByLabelText(/Enter the 6-digit code/), { target: { value: TEST_TOTP.code } });
    await click(button(dialog, 'Verify'));
    await waitFor(() => expect(me()).toBe(before + 1));
  });

  it('sets up the app: the QR code as an image, the grouped secret to copy, the code field’s rules, a wrong code', async () => {
    const { part, backend } = await mount({});
    await click(within(part).getByTestId('security-totp-set-up'));
    const dialog = await dialogNamed('Set up an authenticator app');
    // The service's SVG is drawn as a picture: none of its markup is in the page.
    const qr = within(dialog).getByRole('img', { name: 'QR code for setting up your authenticator app' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    expect(document.querySelector('svg rect')).toBeNull();
    expect(within(dialog).getByTestId('security-totp-secret').textContent).toBe(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    expect(
      within(dialog).getByRole('link', { name: 'Open it in your authenticator app' }).getAttribute('href'),
    ).toMatch(/^otpauth:\/\/totp\//);
    await click(within(dialog).getByRole('button', { name: 'Copy the setup key' }));
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith(TEST_TOTP.secret);

    const code = within(dialog).getByLabelText(/Enter the 6-digit code the app shows/);
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    // Nothing typed, too short: said without a call.
    await click(button(dialog, 'Verify'));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Enter the code the app shows');
    fireEvent.change(code, { target: { value: '12a3' } });
    expect((code as HTMLInputElement).value).toBe('123');
    await click(button(dialog, 'Verify'));
    expect(within(dialog).getByRole('alert').textContent).toBe('The code has 6 digits');
    expect(backend.callsTo(`POST ${PATHS.totpConfirm}`)).toHaveLength(0);
    // A wrong code: the service's reason in the page's words; the field is empty and focused for the next try.
    fireEvent.change(code, { target: { value: '000 000' } });
    await click(button(dialog, 'Verify'));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toMatch(/^That code is not right/));
    expect(document.activeElement).toBe(code);
    expect((code as HTMLInputElement).value).toBe('');
    expect(backend.callsTo(`POST ${PATHS.totpConfirm}`).map((c) => c.body)).toEqual([{ code: '000000' }]);
  });

  it('the right code: the first factor’s recovery codes shown once, closed once saved; then sign out the others', async () => {
    const { part, backend } = await mount({ sessions: [HERE, PHONE] });
    await click(within(part).getByTestId('security-totp-set-up'));
    const dialog = await dialogNamed('Set up an authenticator app');
    const code = within(dialog).getByLabelText(/Enter the 6-digit code the app shows/);
    // Enter in the field confirms.
    fireEvent.change(code, { target: { value: TEST_TOTP.code } });
    await act(async () => fireEvent.submit(code.closest('form')!));
    expect(backend.callsTo(`POST ${PATHS.totpConfirm}`).map((c) => c.body)).toEqual([{ code: TEST_TOTP.code }]);

    // The first factor's recovery codes, once; the dialog closes only once they are saved.
    const codes = await dialogNamed('Save your recovery codes');
    await closed('Set up an authenticator app');
    expect(
      within(codes)
        .getAllByTestId('security-code')
        .map((li) => li.textContent),
    ).toEqual(testRecoveryCodes(1));
    expect(within(codes).queryByRole('button', { name: 'Close' })).toBeNull();
    const done = button(codes, 'Done');
    expect(done.hasAttribute('disabled')).toBe(true);
    await click(button(codes, 'Copy'));
    const copied = vi.mocked(navigator.clipboard.writeText).mock.calls.at(-1)?.[0] ?? '';
    expect(copied).toContain(testRecoveryCodes(1).join('\n'));
    expect(copied).toMatch(/^.+ recovery codes\nAccount: alice on /);
    await click(within(codes).getByRole('checkbox', { name: 'I have saved these recovery codes' }));
    await click(done);
    await closed('Save your recovery codes');

    expect(within(part).getByTestId('security-two-factor-status').textContent).toBe('On');
    expect(within(part).getByTestId('security-totp-since').textContent).toMatch(/^Set up on 2026-11-27/);
    expect(within(part).getByTestId('security-recovery-codes-left').textContent).toBe('10 of 10 left');
    // The offer to sign out the other sessions.
    const offer = within(part).getByTestId('security-two-factor-end-others');
    expect(offer.textContent).toContain('1 other session is still signed in.');
    await click(within(offer).getByRole('button', { name: 'Sign out all other sessions' }));
    await waitFor(() => expect(within(part).queryByTestId('security-two-factor-end-others')).toBeNull());
    expect(backend.callsTo(`POST ${PATHS.endOthers}`)).toHaveLength(1);
    expect(await screen.findByText('1 other session has been signed out')).toBeTruthy();
  });

  it('adds a passkey by name through the browser’s prompt, renames it, removes it after a confirmation', async () => {
    startRegistration.mockResolvedValue({ id: 'cred', rawId: 'cred', type: 'public-key' });
    const { part, backend } = await mount({
      sessions: [HERE],
      twoFactor: { totp: { since: '2026-11-01T00:00:00.000Z' }, recovery_codes_left: 10 },
    });
    await click(within(part).getByRole('button', { name: 'Add a passkey' }));
    const dialog = await dialogNamed('Add a passkey or security key');
    await click(button(dialog, 'Continue'));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter a name');
    expect(startRegistration).not.toHaveBeenCalled();

    // Closed prompt: said in the dialog, the name stays for another try.
    startRegistration.mockRejectedValueOnce(Object.assign(new Error('closed'), { name: 'NotAllowedError' }));
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  Work laptop ' } });
    await click(button(dialog, 'Continue'));
    expect((await within(dialog).findByTestId('security-passkey-failure')).textContent).toMatch(
      /^No passkey was created/,
    );
    await click(button(dialog, 'Continue'));
    await closed('Add a passkey or security key');
    expect(startRegistration).toHaveBeenLastCalledWith({ optionsJSON: TEST_REGISTRATION_OPTIONS });
    expect(backend.callsTo(`POST ${PATHS.passkeys}`).map((c) => (c.body as { name: string }).name)).toEqual([
      'Work laptop',
    ]);
    expect(await screen.findByText('“Work laptop” has been added')).toBeTruthy();
    const row = () => within(part).getByTestId('security-passkey');
    expect(within(row()).getByTestId('security-passkey-name').textContent).toBe('Work laptop');
    expect(row().textContent).toContain('Never used');
    // Not the first factor: no codes dialog; two methods now.
    expect(screen.queryByRole('dialog', { name: 'Save your recovery codes' })).toBeNull();

    await click(within(row()).getByRole('button', { name: 'Rename Work laptop' }));
    const rename = await dialogNamed('Rename passkey');
    const name = within(rename).getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('Work laptop');
    fireEvent.change(name, { target: { value: 'Home laptop' } });
    await click(button(rename, 'Save'));
    await waitFor(() => expect(within(row()).getByTestId('security-passkey-name').textContent).toBe('Home laptop'));

    await click(within(row()).getByRole('button', { name: 'Remove Home laptop' }));
    const pop = await popconfirm();
    expect(pop.textContent).toContain('Remove “Home laptop”?');
    expect(pop.textContent).toContain('It will no longer sign you in.');
    await click(within(pop).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(part).queryByTestId('security-passkey')).toBeNull());
    expect(backend.callsTo(`DELETE ${PATHS.passkey}`).map((c) => c.path)).toEqual([
      '/users/ajax/v1/my/two-factor/passkeys/pk-new-1',
    ]);
  });

  it('removing the last method says two-factor turns off; an organization that requires one is said instead', async () => {
    const { part, backend } = await mount({
      twoFactor: { totp: { since: '2026-11-01T00:00:00.000Z' }, recovery_codes_left: 10 },
    });
    await click(within(part).getByTestId('security-totp-remove'));
    let pop = await popconfirm();
    expect(pop.textContent).toContain(
      'This is your last two-factor method: two-factor authentication will be turned off',
    );
    await click(within(pop).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(part).getByTestId('security-two-factor-status').textContent).toBe('Off'));
    expect(backend.callsTo(`DELETE ${PATHS.totp}`)).toHaveLength(1);
    cleanup();

    const again = await mount({
      twoFactor: {
        passkeys: [testPasskey('pk1', { name: 'Phone' })],
        recovery_codes_left: 10,
        required_by: { org: 'Acme', deadline: '2026-11-01T00:00:00.000Z' },
      },
    });
    await click(within(again.part).getByRole('button', { name: 'Remove Phone' }));
    pop = await popconfirm();
    expect(pop.textContent).toContain('Acme requires two-factor authentication');
    expect(within(pop).queryByRole('button', { name: 'Remove' })).toBeNull();
    await click(within(pop).getByRole('button', { name: 'OK' }));
    expect(again.backend.callsTo(`DELETE ${PATHS.passkey}`)).toHaveLength(0);
  });

  it('few recovery codes left: a warning, and new codes after a confirmation, shown once', async () => {
    const { part, backend } = await mount({
      twoFactor: { passkeys: [testPasskey('pk1')], recovery_codes_left: 2 },
    });
    expect(within(part).getByTestId('security-recovery-codes-left').textContent).toBe('2 of 10 left');
    expect(within(part).getByTestId('security-recovery-codes-low').textContent).toMatch(
      /^Only 2 recovery codes left\. Generate new ones/,
    );
    await click(within(part).getByTestId('security-recovery-codes-new'));
    const pop = await popconfirm();
    expect(pop.textContent).toContain('Your current codes will stop working at once.');
    await click(within(pop).getByRole('button', { name: 'Generate new codes' }));
    const codes = await dialogNamed('Save your recovery codes');
    expect(within(codes).getAllByTestId('security-code')).toHaveLength(10);
    expect(backend.callsTo(`POST ${PATHS.recoveryCodes}`)).toHaveLength(1);
    expect(within(part).queryByTestId('security-recovery-codes-low')).toBeNull();
  });

  it('says it all in Chinese', async () => {
    const { part } = await mount(
      {
        twoFactor: {
          totp: { since: '2026-11-01T00:00:00.000Z' },
          passkeys: [
            testPasskey('pk1', { name: 'YubiKey', discoverable: false, last_used_at: '2026-11-27T09:00:00.000Z' }),
          ],
          recovery_codes_left: 0,
        },
      },
      { locale: 'zh_CN' },
    );
    expect(within(part).getByRole('heading', { level: 2, name: '两步验证' })).toBeTruthy();
    expect(within(part).getByTestId('security-two-factor-status').textContent).toBe('已开启');
    expect(within(part).getByText('身份验证器应用')).toBeTruthy();
    expect(within(part).getByTestId('security-passkey').textContent).toContain('安全密钥');
    expect(within(part).getByTestId('security-passkey').textContent).toContain('最近使用：5分钟前');
    expect(within(part).getByTestId('security-recovery-codes-low').textContent).toMatch(/^恢复码已用完。/);
  });

  it('says when it could not be loaded, and retries; without WebAuthn, adding a passkey is explained', async () => {
    let fail = true;
    Object.defineProperty(window, 'PublicKeyCredential', { value: undefined, configurable: true });
    const { part } = await mount({
      fail: (c) => (fail && c.path === PATHS.twoFactor ? { status: 503, code: 'X' } : undefined),
    });
    expect((await within(part).findByRole('alert')).textContent).toContain(
      'Loading two-factor authentication failed, please try again',
    );
    expect(within(part).queryByTestId('security-two-factor-status')).toBeNull();
    fail = false;
    await click(within(part).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(part).getByTestId('security-two-factor-status').textContent).toBe('Off'));
    const add = within(part).getByRole('button', { name: 'Add a passkey' });
    expect(add.hasAttribute('disabled')).toBe(true);
    expect(document.getElementById(add.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /^This browser cannot create passkeys/,
    );
  });
});
