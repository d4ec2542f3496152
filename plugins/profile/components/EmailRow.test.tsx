import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBackend, ok } from '../../../tests/kit/fake-backend';
import { renderWithCore, rootStoreWithPageData } from '../../../tests/kit/web';
import { EmailRow } from './EmailRow';

afterEach(cleanup);

const REBIND = 'POST /users/ajax/v1/my/emails:rebind';

/** The e-mail row of an account with these attributes (as the page brings them), its change dialog open. */
async function openChange(
  attributes: { has_password: boolean; directory: string | null },
  locale: 'en_US' | 'zh_CN' = 'en_US',
) {
  const backend = fakeBackend({
    [REBIND]: ok({ email: 'new@example.net', email_verified: false, resend_available_at: null, server_time: 0 }),
  });
  const pageData = { profile: { attributes: { ...attributes, email: 'lin@example.org', email_verified: true } } };
  const store = await rootStoreWithPageData({ profile: () => import('../store') }, backend, pageData).store('profile');
  const view = await renderWithCore(<EmailRow store={store} email="lin@example.org" verified notify={() => {}} />, {
    backend,
    locale,
  });
  fireEvent.click(screen.getByTestId('profile-email-modify'));
  await screen.findByTestId('profile-email-password');
  return view;
}

/** The dialog's field labels and hints. */
const dialogTexts = () =>
  [...document.querySelectorAll('.ant-modal .ant-form-item-label, .ant-modal .ant-form-item-extra')].map(
    (e) => e.textContent,
  );

describe('e-mail row', () => {
  it("asks a directory account for its directory's password, by the directory's name, and sends it", async () => {
    const { backend } = await openChange({ has_password: false, directory: 'Example LDAP' });
    expect(dialogTexts()).toEqual([
      'Email address',
      'Example LDAP password',
      'You sign in through Example LDAP: changing the email needs the password you sign in with there. The old address is told of the change. If Example LDAP has an email for you, your next sign-in puts it back.',
    ]);
    expect(screen.queryByTestId('profile-email-code')).toBeNull();
    fireEvent.change(document.querySelector('.ant-modal input[type="email"]')!, {
      target: { value: 'new@example.net' },
    });
    fireEvent.change(screen.getByTestId('profile-email-password'), { target: { value: 'Lin#Pass-1' } });
    await act(async () => {
      fireEvent.click(screen.getByText('Send activation email'));
    });
    await waitFor(() => expect(backend.callsTo(REBIND)).toHaveLength(1));
    expect(backend.callsTo(REBIND)[0].body).toEqual({ email: 'new@example.net', password: 'Lin#Pass-1' });
  });

  it('says it in Chinese too; a local account is asked its current password as before', async () => {
    await openChange({ has_password: false, directory: 'Example LDAP' }, 'zh_CN');
    expect(dialogTexts()).toContain('Example LDAP 密码');
    cleanup();
    await openChange({ has_password: true, directory: null });
    expect(dialogTexts()).toEqual([
      'Email address',
      'Current password',
      'Changing the email needs your current password; the old address is told of the change.',
    ]);
  });
});
