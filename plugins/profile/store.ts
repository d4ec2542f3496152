import { makeAutoObservable, runInAction } from 'mobx';
import type { RequestClient, RequestError } from '../../src/core/request';
import type { SessionStore } from '../../src/core/stores/SessionStore';
import { useStores, type RootStore } from '../../src/core/stores/root';
import { profileApi } from './api';
import { AVATAR_MAX_BYTES, SNIFF_BYTES, sniffImageKind, type EmailState, type ProfileLanguage } from './contract';

/** A failure the page shows: a message id of ours, or the server's own (already localised) text. */
export type ProfileFailure = { id: string } | { text: string };

/** Outcome of an action; the page turns it into a message. */
export type ProfileResult = { ok: true } | { ok: false; failure: ProfileFailure };

/** The server's catalogue message when it answered one (it is in the UI language), else our fallback message id. */
export function failureOf(error: RequestError, fallbackId: string): ProfileFailure {
  const data = (error.data ?? {}) as { code?: string; message?: string };
  if (error.status > 0 && data.code && data.message && data.code !== 'SystemError') return { text: data.message };
  return { id: fallbackId };
}

const ok: ProfileResult = { ok: true };
const fail = (failure: ProfileFailure): ProfileResult => ({ ok: false, failure });

/** Which avatar problem the browser found before uploading, as a message id (or undefined when fine). */
export async function checkAvatarFile(file: Blob): Promise<string | undefined> {
  if (file.size > AVATAR_MAX_BYTES) return 'profile.avatar.sizeError';
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return sniffImageKind(head) ? undefined : 'profile.avatar.formatError';
}

/** Profile section: password, language, avatar and notification e-mail of the signed-in user. */
export class ProfileStore {
  /** The page's first load (account attributes) is in flight. */
  loading = false;
  /** The account has a password, so a change must give the old one. */
  hasPassword = true;
  /** A password change is in flight. */
  passwordSaving = false;
  /** A language switch is in flight. */
  languageSaving = false;
  /** An avatar upload or restore is in flight. */
  avatarSaving = false;
  /** An e-mail call is in flight (bind, modify, resend, unbind). */
  emailSaving = false;
  /** Local time (ms) from which a resend is allowed; null when no countdown runs. */
  resendAvailableAt: number | null = null;
  /** The verification landing page's call: pending, done or failed with a message. */
  verification: { state: 'idle' | 'pending' | 'done' } | { state: 'failed'; failure: ProfileFailure } = {
    state: 'idle',
  };
  private api: ReturnType<typeof profileApi>;

  constructor(
    client: RequestClient,
    private session: SessionStore,
  ) {
    this.api = profileApi(client);
    makeAutoObservable<ProfileStore, 'api' | 'session'>(this, { api: false, session: false });
  }

  /** Loads what the page needs beyond the session user; loading stops on success and on failure. */
  async load(): Promise<void> {
    this.loading = true;
    const [error, attrs] = await this.api.attributes();
    runInAction(() => {
      if (!error) this.hasPassword = attrs.has_password;
      this.loading = false;
    });
  }

  /** Changes the password; the caller has checked the rule and the confirmation already. */
  async changePassword(newPassword: string, oldPassword?: string): Promise<ProfileResult> {
    this.passwordSaving = true;
    const [error] = await this.api.changePassword(newPassword, this.hasPassword ? oldPassword : undefined);
    runInAction(() => {
      this.passwordSaving = false;
      if (!error) this.hasPassword = true;
    });
    return error ? fail(failureOf(error, 'profile.password.failed')) : ok;
  }

  /** Persists the language (preference, legacy switch, cookie) and switches the UI at once. */
  async setLanguage(language: ProfileLanguage): Promise<ProfileResult> {
    if (language === this.session.locale) return ok;
    this.languageSaving = true;
    const [error] = await this.api.savePreferences(language);
    const [legacyError] = error ? [error] : await this.api.saveLegacyLanguage(language);
    runInAction(() => {
      this.languageSaving = false;
      if (!legacyError) {
        this.session.setLocale(language);
        if (this.session.user) this.session.user.language = language;
      }
    });
    return legacyError ? fail({ id: 'profile.language.failed' }) : ok;
  }

  /** Checks the file by size and content, uploads it and makes it the avatar. */
  async uploadAvatar(file: File): Promise<ProfileResult> {
    const problem = await checkAvatarFile(file);
    if (problem) return fail({ id: problem });
    this.avatarSaving = true;
    const [upError, uploaded] = await this.api.uploadAvatar(file);
    if (upError) {
      runInAction(() => (this.avatarSaving = false));
      return fail(failureOf(upError, 'profile.avatar.failed'));
    }
    return this.applyAvatar(uploaded.url, 'profile.avatar.failed');
  }

  /** Back to the default avatar. */
  restoreAvatar(): Promise<ProfileResult> {
    this.avatarSaving = true;
    return this.applyAvatar(null, 'profile.avatar.failed');
  }

  private async applyAvatar(avatar: string | null, fallbackId: string): Promise<ProfileResult> {
    const [error, me] = await this.api.setAvatar(avatar);
    runInAction(() => {
      this.avatarSaving = false;
      if (!error && this.session.user) this.session.user.avatar = me.avatar;
    });
    return error ? fail(failureOf(error, fallbackId)) : ok;
  }

  /** Binds a first address ('bind'), changes it ('rebind'), or resends the mail for the bound one ('resend'). */
  async sendActivation(mode: 'bind' | 'rebind' | 'resend', email: string): Promise<ProfileResult> {
    this.emailSaving = true;
    const [error, state] =
      mode === 'rebind' ? await this.api.rebindEmail(email.trim()) : await this.api.bindEmail(email.trim());
    const fallback = {
      bind: 'profile.email.bindFailed',
      rebind: 'profile.email.modifyFailed',
      resend: 'profile.email.sendFailed',
    }[mode];
    runInAction(() => {
      this.emailSaving = false;
      if (!error) this.applyEmail(state);
    });
    return error ? fail(failureOf(error, fallback)) : ok;
  }

  /** Removes the bound address. */
  async unbindEmail(): Promise<ProfileResult> {
    const email = this.session.user?.email;
    if (!email) return ok;
    this.emailSaving = true;
    const [error, state] = await this.api.unbindEmail(email);
    runInAction(() => {
      this.emailSaving = false;
      if (!error) this.applyEmail(state);
    });
    return error ? fail(failureOf(error, 'profile.email.unbindFailed')) : ok;
  }

  /** Spends the activation token of the landing page (once, even if asked twice). */
  async verifyEmail(token: string): Promise<void> {
    if (this.verification.state !== 'idle') return;
    this.verification = { state: 'pending' };
    const [error, state] = await this.api.verifyEmail(token);
    runInAction(() => {
      if (error) this.verification = { state: 'failed', failure: failureOf(error, 'profile.emails.failed') };
      else {
        this.verification = { state: 'done' };
        this.applyEmail(state);
      }
    });
    // The landing page may have loaded the user before the token was spent: read it again.
    if (!error) await this.session.load();
  }

  private applyEmail(state: EmailState): void {
    const user = this.session.user;
    if (user) {
      user.email = state.email;
      user.email_verified = state.email_verified;
    }
    // The server's clock decides; only the remaining time is carried over to the browser's clock.
    this.resendAvailableAt =
      state.resend_available_at === null ? null : Date.now() + (state.resend_available_at - state.server_time);
  }
}

const perRoot = new WeakMap<RootStore, ProfileStore>();

/**
 * The section's store, created on first use by a profile page (one per root store): the store's code
 * then loads with the pages instead of weighing on the initial bundle, which is within a few KB of its budget.
 */
export function useProfileStore(): ProfileStore {
  const root = useStores();
  let store = perRoot.get(root);
  if (!store) {
    store = new ProfileStore(root.client, root.session);
    perRoot.set(root, store);
  }
  return store;
}
