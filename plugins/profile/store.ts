import { runInAction } from 'mobx';
import type { RequestClient, RequestError, RequestResult } from '../../src/core/request';
import type { SessionStore } from '../../src/core/stores/SessionStore';
import { failureOf, type ActionResult, type Failure } from '../../src/core/stores/failure';
import { annotate, ResourceStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import type { Me } from '../../schemas/session';
import type { ColorScheme } from '../../schemas/color-scheme';
import { profileApi } from './api';
import type { BindAttributes, EmailCodeBody, EmailProof, EmailState, ProfileLanguage } from './contract';
import { AVATAR_MAX_BYTES, SNIFF_BYTES, sniffImageKind } from './limits';

/** Service failures this section explains itself (the spec's 'error sending the activation mail'). */
const PROFILE_FAILURES = {
  ProfileEmailSendFailed: 'profile.email.sendError',
  // A 503 the page explains: the account's directory is down (a first password's directory password cannot be
  // checked now).
  DirectoryUnavailable: 'profile.email.directoryUnavailable',
};

/** What a password change proves the account with (see `ProfileStore.passwordProof`). */
export type PasswordProofKind = 'password' | 'directory' | 'code' | null;

/** The one failure mapping for this section: a known code, the service's explanation of a 4xx, else the fallback. */
const failure = (fallbackId: string) => (error: RequestError) => failureOf(error, PROFILE_FAILURES, fallbackId);

/** Which avatar problem the browser found before uploading, as a message id (or undefined when fine). */
export async function checkAvatarFile(file: Blob): Promise<string | undefined> {
  if (file.size > AVATAR_MAX_BYTES) return 'profile.avatar.sizeError';
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return sniffImageKind(head) ? undefined : 'profile.avatar.formatError';
}

/** Profile section: password, language, appearance, avatar and notification e-mail of the signed-in user. */
export class ProfileStore extends ResourceStore<Pick<BindAttributes, 'has_password' | 'directory'>> {
  /** A password change is in flight. */
  passwordSaving = false;
  /** A language switch is in flight. */
  languageSaving = false;
  /** An appearance (colour scheme) change is in flight. */
  colorSchemeSaving = false;
  /** An avatar upload or restore is in flight. */
  avatarSaving = false;
  /** An e-mail call is in flight (bind, modify, resend, unbind). */
  emailSaving = false;
  /** Local time (ms) from which a resend is allowed; null when no countdown runs. */
  resendAvailableAt: number | null = null;
  /** Local time (ms) from which another e-mail change code may be sent; null when none was sent. */
  codeAvailableAt: number | null = null;
  /** Where the last e-mail change code went (masked), to show under the code field. */
  codeSentTo: string | null = null;
  /** The verification landing page's call: pending, done or failed (no failure to show: the central notice did). */
  verification: { state: 'idle' | 'pending' | 'done' } | { state: 'failed'; failure?: Failure } = {
    state: 'idle',
  };
  private readonly api: ReturnType<typeof profileApi>;

  constructor(
    client: RequestClient,
    private readonly session: SessionStore,
  ) {
    // Until the attributes say otherwise the account is taken to have a password (the old one is asked).
    super({ empty: { has_password: true, directory: null } });
    this.api = profileApi(client);
    annotate<ProfileStore, 'applyEmail'>(this, {
      observable: [
        'passwordSaving',
        'languageSaving',
        'colorSchemeSaving',
        'avatarSaving',
        'emailSaving',
        'resendAvailableAt',
        'codeAvailableAt',
        'codeSentTo',
        'verification',
      ],
      action: [
        'changePassword',
        'setLanguage',
        'setColorScheme',
        'uploadAvatar',
        'restoreAvatar',
        'sendActivation',
        'sendEmailCode',
        'unbindEmail',
        'verifyEmail',
        'applyEmail',
      ],
    });
  }

  /** The account has a password, so a change must give the old one. */
  get hasPassword(): boolean {
    return this.data.has_password;
  }

  /** The directory the account signs in through (its password proves an e-mail change), or null. */
  get directory(): string | null {
    return this.data.directory;
  }

  /**
   * What a password change asks for: the current password; for a first password the directory's (a directory
   * account) or a code mailed to the current address (an account with one); nothing for an account with neither.
   */
  get passwordProof(): PasswordProofKind {
    if (this.hasPassword) return 'password';
    if (this.directory !== null) return 'directory';
    return this.session.user?.email ? 'code' : null;
  }

  /** The attributes the page needs beyond the session user. */
  protected fetch() {
    return this.api.attributes();
  }

  /** A failed read keeps what is known (the page still offers the change, asking the old password when unsure). */
  protected override clear(): void {}

  /** Changes the password with the proof `passwordProof` asks for; the caller has checked the rule and confirmation. */
  changePassword(newPassword: string, given: { old?: string; code?: string } = {}): Promise<ActionResult> {
    const kind = this.passwordProof;
    const proof =
      kind === 'password' || kind === 'directory'
        ? { old_password: given.old }
        : kind === 'code'
          ? { code: given.code }
          : {};
    return this.saveWith(this.api.changePassword(newPassword, proof, kind === 'directory'), {
      busy: (on) => (this.passwordSaving = on),
      failure: failure('profile.password.failed'),
      apply: () => (this.data = { ...this.data, has_password: true }),
    });
  }

  /** Persists the language (preference, legacy switch, cookie) and switches the UI at once. */
  async setLanguage(language: ProfileLanguage): Promise<ActionResult> {
    if (language === this.session.locale) return { ok: true };
    const both = async (): Promise<RequestResult<unknown>> => {
      const saved = await this.api.savePreferences(language);
      return saved[0] ? saved : this.api.saveLegacyLanguage(language);
    };
    return this.saveWith(both(), {
      busy: (on) => (this.languageSaving = on),
      // The page always says 'switching failed' (the two calls may fail for different reasons).
      failure: (error) => failureOf(error, {}, 'profile.language.failed', { serviceText: false }),
      apply: () => {
        this.session.setLocale(language);
        if (this.session.user) this.session.user.language = language;
      },
    });
  }

  /**
   * Keeps the colour scheme on the account, then shows it through the session (whose `colorScheme` the theme
   * follows); a failure leaves the theme as it was.
   */
  async setColorScheme(colorScheme: ColorScheme): Promise<ActionResult> {
    if (colorScheme === this.session.colorScheme) return { ok: true };
    return this.saveWith(this.api.saveAppearance(colorScheme), {
      busy: (on) => (this.colorSchemeSaving = on),
      failure: failure('profile.appearance.failed'),
      apply: (saved) => this.session.setColorScheme(saved.colorScheme),
    });
  }

  /** Checks the file by size and content, uploads it and makes it the avatar. */
  async uploadAvatar(file: File): Promise<ActionResult> {
    const problem = await checkAvatarFile(file);
    if (problem) return { ok: false, failure: { id: problem } };
    const uploadAndSet = async (): Promise<RequestResult<Me>> => {
      const [upError, uploaded] = await this.api.uploadAvatar(file);
      return upError ? [upError, undefined] : this.api.setAvatar(uploaded.url);
    };
    return this.applyAvatar(uploadAndSet());
  }

  /** Back to the default avatar. */
  restoreAvatar(): Promise<ActionResult> {
    return this.applyAvatar(this.api.setAvatar(null));
  }

  private applyAvatar(call: Promise<RequestResult<Me>>): Promise<ActionResult> {
    return this.saveWith(call, {
      busy: (on) => (this.avatarSaving = on),
      failure: failure('profile.avatar.failed'),
      apply: (me) => {
        if (this.session.user) this.session.user.avatar = me.avatar;
      },
    });
  }

  /**
   * Binds a first address ('bind'), changes it ('rebind'), or resends the mail for the bound one ('resend'); a bind
   * or change by an account without a password carries the mailed code (re-authentication is the core's).
   */
  sendActivation(mode: 'bind' | 'rebind' | 'resend', email: string, proof: EmailProof = {}): Promise<ActionResult> {
    const call =
      mode === 'rebind'
        ? this.api.rebindEmail(email.trim(), proof)
        : this.api.bindEmail(email.trim(), mode === 'resend' ? {} : proof);
    const fallback = {
      bind: 'profile.email.bindFailed',
      rebind: 'profile.email.modifyFailed',
      resend: 'profile.email.sendFailed',
    }[mode];
    return this.saveWith(call, {
      busy: (on) => (this.emailSaving = on),
      failure: failure(fallback),
      apply: (state) => this.applyEmail(state),
    });
  }

  /** Mails a code to the current address, for an account without a password to prove a change (or first password). */
  sendEmailCode(purpose: EmailCodeBody['purpose'] = 'email'): Promise<ActionResult> {
    return this.saveWith(this.api.sendEmailCode(purpose), {
      busy: (on) => (this.emailSaving = on),
      failure: failure('profile.email.codeFailed'),
      apply: (answer) => {
        this.codeSentTo = answer.sent_to;
        this.codeAvailableAt = Date.now() + (answer.resend_available_at - answer.server_time);
      },
    });
  }

  /** Removes the bound address (an account without a password gives the mailed code). */
  async unbindEmail(proof: EmailProof = {}): Promise<ActionResult> {
    const email = this.session.user?.email;
    if (!email) return { ok: true };
    return this.saveWith(this.api.unbindEmail(email, proof), {
      busy: (on) => (this.emailSaving = on),
      failure: failure('profile.email.unbindFailed'),
      apply: (state) => this.applyEmail(state),
    });
  }

  /** Spends the activation token of the landing page (once, even if asked twice). */
  async verifyEmail(token: string): Promise<void> {
    if (this.verification.state !== 'idle') return;
    this.verification = { state: 'pending' };
    const [error, state] = await this.api.verifyEmail(token);
    runInAction(() => {
      if (error) this.verification = { state: 'failed', failure: failure('profile.emails.failed')(error) };
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

/** Built when a profile page first asks for it (`useStore('profile')`), with the session it updates. */
const createProfileStore: StoreFactory<ProfileStore> = (core) => {
  const store = new ProfileStore(core.client, core.session);
  // The profile page's first render has the attributes from the page (else the page's load asks for them).
  const brought = (
    core.pageData('profile') as { attributes?: { has_password?: unknown; directory?: unknown } } | null | undefined
  )?.attributes;
  if (typeof brought?.has_password === 'boolean') {
    const directory = typeof brought.directory === 'string' ? brought.directory : null;
    store.seed({ has_password: brought.has_password, directory });
  }
  return store;
};
export default createProfileStore;
