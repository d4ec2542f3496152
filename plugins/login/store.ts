import { runInAction } from 'mobx';
import { errorCodeOf, type RequestClient, type RequestError } from '../../src/core/request';
import { failureOf, type Failure } from '../../src/core/stores/failure';
import { annotate, SectionStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { loginApi } from './api';

/** Server error codes the page explains with its own catalogue; others show the server's message. */
export const LOGIN_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  AccountOrPasswordIncorrect: 'login.error.incorrect',
  AccountLocked: 'login.error.locked',
  CaptchaRequired: 'login.error.captchaRequired',
  CaptchaInvalid: 'login.error.captchaInvalid',
  TooManyRequestsMinute: 'login.error.tooMany',
};

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
  /** The solved slider's pass, kept in memory for exactly one sign-in; null until solved and after use. */
  private pass: string | null = null;
  private readonly api: ReturnType<typeof loginApi>;

  constructor(client: RequestClient) {
    super();
    this.api = loginApi(client);
    annotate<LoginStore, 'pass'>(this, {
      observable: ['failure', 'pendingChange', 'done', 'captchaFor', 'captchaRound', 'pass'],
      action: ['signIn', 'changePassword', 'setCaptchaPass'],
      computed: ['captchaSolved'],
    });
  }

  /** A pass is ready for the next sign-in. */
  get captchaSolved(): boolean {
    return this.pass !== null;
  }

  /** Keeps the pass the slider earned, for the next sign-in only. */
  setCaptchaPass(pass: string): void {
    this.pass = pass;
    this.failure = null;
  }

  /** Signs in; on success either finishes or asks for the forced password change; on refusal asks for the slider. */
  async signIn(username: string, password: string): Promise<void> {
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
    let code: string | undefined;
    const r = await this.saveWith(this.api.login(name, password, pass), {
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
    runInAction(() => (this.failure = r.failure ?? null));
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

/** Built when the sign-in page first asks for it (`useStore('login')`). */
const createLoginStore: StoreFactory<LoginStore> = (core) => new LoginStore(core.client);
export default createLoginStore;
