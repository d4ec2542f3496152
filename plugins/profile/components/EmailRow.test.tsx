import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, ok } from '../../../tests/kit/fake-backend';
import { renderWithCore, rootStoreWithPageData } from '../../../tests/kit/web';
import { EmailRow } from './EmailRow';

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
  await waitFor(() => expect(document.querySelector('.ant-modal input[type="email"]')).not.toBeNull());
  return { ...view, backend };
}

/** The dialog's field labels and hints. */
const dialogTexts = () =>
  [...document.querySelectorAll('.ant-modal .ant-form-item-label, .ant-modal .ant-form-item-extra')].map(
    (e) => e.textContent,
  );

/** Types the new address and sends the dialog. */
async function send(address: string) {
  fireEvent.change(document.querySelector('.ant-modal input[type="email"]')!, { target: { value: address } });
  await act(async () => {
    fireEvent.click(screen.getByText(/^(Send activation email|发送激活邮件)$/));
  });
}

describe('e-mail row', () => {
  it('asks an account with a password (its own or its directory’s) for no password: re-authentication proves it', async () => {
    for (const attributes of [
      { has_password: false, directory: 'Example LDAP' },
      { has_password: true, directory: null },
    ]) {
      const { backend } = await openChange(attributes);
      expect(dialogTexts()).toEqual(['Email address']);
      expect(screen.queryByTestId('profile-email-password')).toBeNull();
      expect(screen.queryByTestId('profile-email-code')).toBeNull();
      await send('new@example.net');
      await waitFor(() => expect(backend.callsTo(REBIND)).toHaveLength(1));
      expect(backend.callsTo(REBIND)[0].body).toEqual({ email: 'new@example.net' });
      cleanup();
    }
  });

  it('asks an account without a password for the code mailed to its current address, in Chinese too', async () => {
    await openChange({ has_password: false, directory: null }, 'zh_CN');
    expect(screen.getByTestId('profile-email-code')).toBeTruthy();
    expect(screen.queryByTestId('profile-email-password')).toBeNull();
    expect(dialogTexts()[0]).toBe('邮箱地址');
  });
});
