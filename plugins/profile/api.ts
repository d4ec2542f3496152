import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type { Me } from '../../schemas/session';
import type { ColorScheme } from '../../schemas/color-scheme';
import type {
  Appearance,
  AvatarUploadAnswer,
  BindAttributes,
  EmailCodeAnswer,
  EmailCodeBody,
  EmailProof,
  EmailState,
  ProfileLanguage,
} from './contract';

/**
 * What proves a password change: the current password (for a directory account's first password, its directory's),
 * or for the first password of an account with an address the code mailed there.
 */
export interface PasswordProof {
  old_password?: string;
  code?: string;
}

/** How long a first password proved with a directory password may take (the directory answers within 5 s). */
const DIRECTORY_PROOF_TIMEOUT_MS = 10_000;

/** Calls of the profile section, at the suite's paths; every call resolves to `[error, result]`. */
export function profileApi(client: RequestClient) {
  // Callers explain a 4xx themselves; a response ≥ 500 (a failed mail send too) shows the central notice.
  const own = { handleUnauthorized: true } as const;
  // A directory account's proof is judged by its directory, which may take up to 5 s before the service answers
  // (DirectoryUnavailable); the client's 5 s default would cut that off as a network error.
  const proving = (directory: boolean) => (directory ? { ...own, timeoutMs: DIRECTORY_PROOF_TIMEOUT_MS } : own);
  return {
    /** Whether the account has a password (the old one is asked only then) and its e-mail. */
    attributes: () => client.get<BindAttributes>('/users/ajax/v1/my/attributes:bind', undefined, own),
    /**
     * Password change with the account's proof; the service applies the rule and ends the user's other sessions.
     * `directory`: the proof is a directory password (a longer wait).
     */
    changePassword: async (newPassword: string, proof: PasswordProof = {}, directory = false) => {
      // The fingerprint code (crypto) loads only when a password is actually changed.
      const { getUmidToken } = await import(/* webpackChunkName: "core-captcha" */ '../../src/core/captcha');
      return client.put<Success>(
        '/users/ajax/v1/my/password',
        { new_password: newPassword, ...proof },
        {
          ...proving(directory),
          handleUnauthorized: false,
          headers: { user_agent: navigator.userAgent, 'umid-token': getUmidToken() },
        },
      );
    },
    /** Saves the language preference (the service also sets the locale cookie). */
    savePreferences: (language: ProfileLanguage) =>
      client.put<{ language: ProfileLanguage }>('/users/ajax/v1/my/preferences', { language }, own),
    /** The suite's legacy language switch, kept in step so the other apps follow. */
    saveLegacyLanguage: (language: ProfileLanguage) =>
      client.put<{ language: ProfileLanguage }>('/api/ajax/teambition/api/users/language', undefined, {
        ...own,
        form: { language },
      }),
    /** Keeps the colour scheme on the account (what `me` and the page's bootstrap then report). */
    saveAppearance: (colorScheme: ColorScheme) =>
      client.put<Appearance>('/users/ajax/v1/my/appearance', { colorScheme }, own),
    /** Uploads an image file; answers the URL to set as avatar. */
    uploadAvatar: (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return client.post<AvatarUploadAnswer>('/objects/ajax/avatars', form, { ...own, timeoutMs: 20_000 });
    },
    /** Sets the avatar to an uploaded URL, or back to the default with null. */
    setAvatar: (avatar: string | null) => client.put<Me>('/individual/proxy/my/avatar', { avatar }, own),
    /**
     * Binds an address, or resends the activation mail for the same unverified one (the session's recent proof is
     * asked by the core's re-authentication dialog; an account without a password also gives the mailed code).
     */
    bindEmail: (email: string, proof: EmailProof = {}) =>
      client.post<EmailState>('/users/ajax/v1/my/emails:bind', { email, ...proof }, own),
    /** Changes the bound address (re-authentication; without a password also the mailed code). */
    rebindEmail: (email: string, proof: EmailProof) =>
      client.post<EmailState>('/users/ajax/v1/my/emails:rebind', { email, ...proof }, own),
    /** Removes the bound address (re-authentication; without a password also the mailed code). */
    unbindEmail: (email: string, proof: EmailProof) =>
      client.post<EmailState>('/individual/proxy/my/email:unbind', { email, ...proof }, own),
    /** Mails a code to the current address (accounts without a password prove an e-mail change or a first password). */
    sendEmailCode: (purpose: NonNullable<EmailCodeBody['purpose']> = 'email') =>
      client.post<EmailCodeAnswer>('/users/ajax/v1/my/emails:code', { purpose }, own),
    /** Spends the activation token from the mail. */
    verifyEmail: (token: string) => client.post<EmailState>('/individual/proxy/my/email:verify', { token }, own),
  };
}
