import { runInAction } from 'mobx';
import { errorCodeOf, type RequestClient, type RequestError } from '../../src/core/request';
import { failureOf, type Failure } from '../../src/core/stores/failure';
import { annotate, SectionStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { hasStrings, isRecord } from '../../src/core/shape';
import { OAUTH_PROVIDERS } from '../../schemas/sign-in-paths';
import { loginApi } from './api';
import type { DirectoryKind, LoginBody, PendingBind } from './contract';

/** Server error codes the page explains with its own catalogue; others show the server's message. */
export const LOGIN_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  AccountOrPasswordIncorrect: 'login.error.incorrect',
  AccountLocked: 'login.error.locked',
  CaptchaRequired: 'login.error.captchaRequired',
  CaptchaInvalid: 'login.error.captchaInvalid',
  TooManyRequestsMinute: 'login.error.tooMany',
  DirectoryNotEnabled: 'login.error.directoryNotEnabled',
  DirectoryUnavailable: 'login.error.directoryUnavailable',
  DirectoryAccountConflict: 'login.error.directoryAccountConflict',
  ThirdPartyAccountBoundToOther: 'login.error.boundToOther',
  PendingBindNotFound: 'login.error.bindExpired',
};

/** Answers after which the waiting third-party account can no longer be bound here: the banner goes. */
const BIND_GONE_CODES = new Set(['ThirdPartyAccountBoundToOther', 'PendingBindNotFound']);

/** How a sign-in checks the password besides the account's own. */
export interface SignInOptions {
  /** A directory's password (LDAP, Windows AD) instead of the account's; directory sign-ins never bind. */
  directory?: DirectoryKind;
  /** With a directory: the organisation whose directory to use (the page's `?org=`), else the instance's. */
  orgId?: string;
}

/** Answers after which the service wants a slider pass with the next sign-in of the name. */
const CAPTCHA_CODES = new Set(['CaptchaRequired', 'CaptchaInvalid']);

const failure = (error: RequestError) => failureOf(error, LOGIN_ERROR_MESSAGES, 'login.error.network');

/**
 * Sign-in flow: credentials (+ the slider once the service asks for it) → (forced password change) → done.
 * `saving` is on while a call is in flight.
 */
export class LoginStore extends SectionStore {
  /** What went wrong last, shown above the form (none for a ≥ 500: the central notice shows it). */
  failure: Failure | null = null;
  /** Set after a sign-in of a flagged account: the change-password step shows. */
  pendingChange: { csrfToken: string; oldPassword: string } | null = null;
  /** The flow finished; the page leaves for the next URL. */
  done = false;
  /** The account name the slider is shown for (the service asked for a pass); null: no slider. */
  captchaFor: string | null = null;
  /** Bumped whenever the slider must show a fresh puzzle (its pass was spent by a sign-in answer). */
  captchaRound = 0;
  /**
   * A third-party account that came back unbound in this browser (the not-bound page sends people here): the next
   * password sign-in binds it. Null: none waits, or it was not asked for.
   */
  pendingBind: PendingBind | null = null;
  /**
   * The waiting account the sign-in page brought (`pageData`: null for none), until `loadPendingBind` takes it;
   * undefined when the page brought nothing. The page's first render shows it from here, so the banner is painted.
   */
  broughtPendingBind: PendingBind | null | undefined = undefined;
  /** The solved slider's pass, kept in memory for exactly one sign-in; null until solved and after use. */
  private pass: string | null = null;
  private readonly api: ReturnType<typeof loginApi>;

  constructor(client: RequestClient) {
    super();
    this.api = loginApi(client);
    annotate<LoginStore, 'pass'>(this, {
      observable: [
        'failure',
        'pendingChange',
        'done',
        'captchaFor',
        'captchaRound',
        'pass',
        'pendingBind',
        'broughtPendingBind',
      ],
      action: ['signIn', 'changePassword', 'setCaptchaPass', 'clearFailure', 'loadPendingBind', 'cancelPendingBind'],
      computed: ['captchaSolved'],
    });
  }

  /** A pass is ready for the next sign-in. */
  get captchaSolved(): boolean {
    return this.pass !== null;
  }

  /** Forgets the last failure (the page switched to another sign-in method, where it does not apply). */
  clearFailure(): void {
    this.failure = null;
  }

  /** Keeps the pass the slider earned, for the next sign-in only. */
  setCaptchaPass(pass: string): void {
    this.pass = pass;
    this.failure = null;
  }

  /** Asks whether a third-party account waits to be bound in this browser; none (404) or a failure shows nothing. */
  async loadPendingBind(): Promise<void> {
    // What the page brought answers the first ask without a call.
    const brought = this.broughtPendingBind;
    if (brought !== undefined) {
      this.pendingBind = brought;
      this.broughtPendingBind = undefined;
      return;
    }
    const [error, answer] = await this.api.pendingBind();
    runInAction(() => (this.pendingBind = error ? null : answer));
  }

  /** Forgets the waiting third-party account, so the sign-in does not bind it. */
  async cancelPendingBind(): Promise<void> {
    if (!this.pendingBind) return;
    this.failure = null;
    const [error] = await this.api.cancelPendingBind();
    runInAction(() => {
      // Already gone (expired) is as good as forgotten.
      if (!error || errorCodeOf(error) === 'PendingBindNotFound') this.pendingBind = null;
      else this.failure = failure(error) ?? null;
    });
  }

  /**
   * Signs in with the account's password, or a directory's (`options.directory`); on success either finishes or
   * asks for the forced password change; on refusal asks for the slider. A password sign-in binds the waiting
   * third-party account, if any.
   */
  async signIn(username: string, password: string, options: SignInOptions = {}): Promise<void> {
    const name = username.trim();
    this.failure = null;
    const sliderShown = this.captchaFor === name;
    if (sliderShown && !this.pass) {
      this.failure = { id: 'login.error.captchaRequired' };
      return;
    }
    // A pass serves one sign-in answer, whatever that answer is.
    const pass = sliderShown ? (this.pass ?? undefined) : undefined;
    this.pass = null;
    const body: LoginBody = { username: name, password };
    if (pass) body.captcha_pass = pass;
    if (options.directory) {
      body.method = options.directory;
      if (options.orgId) body.org_id = options.orgId;
    } else if (this.pendingBind) body.bind_pending = true;
    let code: string | undefined;
    const r = await this.saveWith(this.api.login(body), {
      failure: (error) => {
        code = errorCodeOf(error);
        return failure(error);
      },
      apply: (result) => {
        if (result.must_change_password) this.pendingChange = { csrfToken: result.csrf_token, oldPassword: password };
        else this.done = true;
      },
    });
    if (r.ok) return;
    runInAction(() => {
      this.failure = r.failure ?? null;
      if (body.bind_pending && code && BIND_GONE_CODES.has(code)) this.pendingBind = null;
    });
    let needed: boolean | undefined;
    if (code && CAPTCHA_CODES.has(code)) needed = true;
    else if (code === 'AccountOrPasswordIncorrect') {
      // The service counts failures per name and address; it says whether the next try needs the slider.
      const [error, answer] = await this.api.check(name);
      if (!error) needed = answer.need_captcha;
    }
    runInAction(() => {
      if (needed === true) this.captchaFor = name;
      else if (needed === false && this.captchaFor === name) this.captchaFor = null;
      // The spent pass's puzzle is done with: a still shown slider starts over with a fresh one.
      if (pass && this.captchaFor === name) this.captchaRound++;
    });
  }

  /** Completes the forced change with the password just used as the old one. */
  async changePassword(newPassword: string): Promise<void> {
    if (!this.pendingChange) return;
    this.failure = null;
    const { csrfToken, oldPassword } = this.pendingChange;
    const r = await this.saveWith(this.api.changePassword(csrfToken, newPassword, oldPassword), {
      failure,
      apply: () => (this.done = true),
    });
    if (!r.ok) runInAction(() => (this.failure = r.failure ?? null));
  }
}

/** A waiting third-party account as the service gives it (what the page brought is checked before it shows). */
function isPendingBind(v: unknown): v is PendingBind {
  return (
    isRecord(v) && hasStrings(v, ['open_id', 'name']) && (OAUTH_PROVIDERS as readonly unknown[]).includes(v.provider)
  );
}

/** Built when the sign-in page first asks for it (`useStore('login')`). */
const createLoginStore: StoreFactory<LoginStore> = (core) => {
  const store = new LoginStore(core.client);
  // The sign-in page's first render has the waiting account from the page (else it asks when told to, `?bind=1`).
  const brought = core.pageData('login');
  if (isRecord(brought) && (brought.pendingBind === null || isPendingBind(brought.pendingBind))) {
    store.broughtPendingBind = brought.pendingBind;
  }
  return store;
};
export default createLoginStore;
