import { runInAction } from 'mobx';
import { errorCodeOf, type RequestClient, type RequestError, type RequestResult } from '../../src/core/request';
import { failureOf, type Failure } from '../../src/core/stores/failure';
import { annotate, SectionStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { hasStrings, isRecord } from '../../src/core/shape';
import { OAUTH_PROVIDERS } from '../../schemas/sign-in-paths';
import type {
  AuthenticationOptions,
  AuthenticationResponse,
  FactorChallenge,
  FactorMethod,
  FactorProof,
} from '../../schemas/second-factor';
import { assertWithPasskey, passkeyFailure } from '../../src/core/webauthn';
import type { FactorCodeProof } from '../../src/core/ui/SecondFactorForm';
import { loginApi } from './api';
import type { DirectoryKind, LoginBody, LoginResult, PendingBind } from './contract';

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
  SecondFactorWrong: 'login.error.secondFactorWrong',
  SecondFactorStepExpired: 'login.error.secondFactorExpired',
  PasskeyNotRecognised: 'login.error.passkeyNotRecognised',
};

/**
 * Answers of the second step after which it is over (the service ended the waiting sign-in): the first step shows
 * again, saying why.
 */
const STEP_OVER_CODES = new Set(['SecondFactorStepExpired', 'AccountLocked', 'AccountHeld']);

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
  /**
   * The second step due (issue 41): the first step passed for an account with a second factor, or a third-party
   * sign-in brought it (page data); no session exists until it is answered. Null: the first step shows.
   */
  secondFactor: FactorChallenge | null = null;
  /** Bumped after a refused code, so the step's field empties for the next one. */
  factorRound = 0;
  /** A passkey is being asked for or checked (the sign-in with a passkey, or the second step's). */
  passkeyPending = false;
  /** The account name of the last first step, so "Back" from the second step does not ask for it again. */
  lastUsername = '';
  /** The solved slider's pass, kept in memory for exactly one sign-in; null until solved and after use. */
  private pass: string | null = null;
  /**
   * The password of the first step while its second step is due, in memory only: the forced change after it needs it
   * as the old one (as after a one-step sign-in). Gone with the step.
   */
  private stepPassword = '';
  /** The first step asked to bind the waiting third-party account: the second step's answer decides it. */
  private stepBinds = false;
  private readonly api: ReturnType<typeof loginApi>;

  constructor(client: RequestClient) {
    super();
    this.api = loginApi(client);
    annotate<LoginStore, 'pass' | 'stepPassword' | 'stepBinds'>(this, {
      observable: [
        'failure',
        'pendingChange',
        'done',
        'captchaFor',
        'captchaRound',
        'pass',
        'pendingBind',
        'broughtPendingBind',
        'secondFactor',
        'factorRound',
        'passkeyPending',
        'lastUsername',
        'stepPassword',
        'stepBinds',
      ],
      action: [
        'signIn',
        'changePassword',
        'setCaptchaPass',
        'clearFailure',
        'loadPendingBind',
        'cancelPendingBind',
        'answerWithCode',
        'answerWithPasskey',
        'signInWithPasskey',
        'startOver',
      ],
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
    this.lastUsername = name;
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
      apply: (answer) => {
        if ('second_factor' in answer) {
          this.secondFactor = answer.second_factor;
          this.stepPassword = password;
          this.stepBinds = !!body.bind_pending;
        } else this.signedIn(answer, password);
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

  /** Answers the second step with a code of the authenticator app or a recovery code. */
  async answerWithCode(proof: FactorCodeProof): Promise<void> {
    await this.answer(proof);
  }

  /**
   * Answers the second step with a passkey or security key: options for the waiting sign-in's passkeys, the
   * browser's prompt, the check. A closed prompt shows nothing; the step stays either way.
   */
  async answerWithPasskey(): Promise<void> {
    if (!this.secondFactor || this.passkeyPending) return;
    this.failure = null;
    const response = await this.passkeyAssertion(this.api.secondFactorOptions());
    if (response) await this.answer({ method: 'webauthn', response });
  }

  /**
   * Signs in with a passkey alone (a discoverable credential names the account): no name, no password, no second
   * step. A closed prompt shows nothing; an assertion the service refuses says so.
   */
  async signInWithPasskey(): Promise<void> {
    if (this.passkeyPending) return;
    this.failure = null;
    const response = await this.passkeyAssertion(this.api.passkeyOptions());
    if (!response) return;
    const r = await this.saveWith(this.api.passkey({ response }), {
      busy: (on) => (this.passkeyPending = on),
      failure,
      apply: (result) => this.signedIn(result, ''),
    });
    if (!r.ok) runInAction(() => (this.failure = r.failure ?? null));
  }

  /** "Back" from the second step: the first step shows again (the waiting sign-in lapses at the service). */
  startOver(failure: Failure | null = null): void {
    // The first step handed the waiting third-party account to the waiting sign-in: it is no longer this browser's.
    if (this.stepBinds) this.pendingBind = null;
    this.secondFactor = null;
    this.stepPassword = '';
    this.stepBinds = false;
    this.failure = failure;
  }

  /** Sends one answer of the second step; a right one signs in as the first step would have. */
  private async answer(proof: FactorProof): Promise<void> {
    if (!this.secondFactor) return;
    this.failure = null;
    const method: FactorMethod = proof.method;
    let code: string | undefined;
    const r = await this.saveWith(this.api.secondFactor(proof), {
      busy: method === 'webauthn' ? (on) => (this.passkeyPending = on) : undefined,
      failure: (error) => {
        code = errorCodeOf(error);
        return failure(error);
      },
      apply: (result) => {
        const password = this.stepPassword;
        this.secondFactor = null;
        this.stepPassword = '';
        this.stepBinds = false;
        this.signedIn(result, password);
      },
    });
    if (r.ok) return;
    runInAction(() => {
      // Expired or locked: this step cannot be answered any more; the first step says why.
      if (code && STEP_OVER_CODES.has(code)) this.startOver(r.failure ?? null);
      else {
        this.failure = r.failure ?? null;
        if (method !== 'webauthn') this.factorRound++;
      }
    });
  }

  /**
   * The service's options (`options`), then the browser's prompt: the assertion, or null after saying why (nothing
   * for a closed prompt). `passkeyPending` is on throughout.
   */
  private async passkeyAssertion(
    options: Promise<RequestResult<AuthenticationOptions>>,
  ): Promise<AuthenticationResponse | null> {
    runInAction(() => (this.passkeyPending = true));
    const [error, optionsJSON] = await options;
    const asserted = error ? null : await assertWithPasskey(optionsJSON);
    runInAction(() => {
      // With an assertion the button keeps spinning until the service has checked it (the caller's call).
      if (!asserted?.ok) this.passkeyPending = false;
      if (error) this.failure = failure(error) ?? null;
      else if (asserted && !asserted.ok) this.failure = passkeyFailure(asserted.reason);
    });
    return asserted?.ok ? asserted.response : null;
  }

  /** A session exists: the forced password change (with the password that signed in), or done. */
  private signedIn(result: LoginResult, password: string): void {
    if (!result.must_change_password) this.done = true;
    else if (password) this.pendingChange = { csrfToken: result.csrf_token, oldPassword: password };
    // No password was typed (a passkey, a third-party sign-in): the change needs one, so the page asks for it.
    else this.failure = { id: 'login.passkey.mustChangePassword' };
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

/** The ways to answer a step (keyed by the shared type, so a method added there is a compile error here). */
const FACTOR_METHODS: Readonly<Record<FactorMethod, true>> = { totp: true, webauthn: true, recovery: true };

/** A second step as the service gives it (a third-party sign-in's, brought by the page). */
function isFactorChallenge(v: unknown): v is FactorChallenge {
  return (
    isRecord(v) &&
    typeof v.expires_at === 'number' &&
    Array.isArray(v.methods) &&
    v.methods.length > 0 &&
    v.methods.every((m) => typeof m === 'string' && Object.hasOwn(FACTOR_METHODS, m))
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
  // A third-party sign-in of an account with a second factor lands here with its step due: the first render shows it.
  if (isRecord(brought) && isFactorChallenge(brought.secondFactor)) store.secondFactor = brought.secondFactor;
  return store;
};
export default createLoginStore;
