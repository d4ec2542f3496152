import { runInAction } from 'mobx';
import type { Clock } from '../../src/core/captcha/crypto';
import { errorCodeOf, type RequestClient, type RequestError } from '../../src/core/request';
import { failureOf, type Failure } from '../../src/core/stores/failure';
import { annotate, SectionStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { validateVerificationCode } from '../../src/core/validation';
import { resetPasswordApi } from './api';
import { RECOVERY_CODE_TTL_MS } from './limits';

/** The wizard's steps, in order; `done` is the closing screen after the reset. */
export type RecoveryStep = 'account' | 'verify' | 'reset' | 'done';

/** Service codes the wizard explains in its own catalogue (the password rule's in the core's). */
export const RESET_PASSWORD_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  AccountNotExist: 'reset-password.error.accountNotExist',
  AccountNoEmail: 'reset-password.error.accountNoEmail',
  CaptchaInvalid: 'reset-password.error.captchaInvalid',
  TooManyRequestsMinute: 'reset-password.error.tooMany',
  RecoveryPageInvalid: 'reset-password.error.pageInvalid',
  RecoveryMailTooFrequent: 'reset-password.error.mailTooFrequent',
  MailServiceNotConfigured: 'reset-password.error.mailNotConfigured',
  RecoveryMailFailed: 'reset-password.error.mailFailed',
  VerificationCodeExhausted: 'reset-password.error.codeExhausted',
  PasswordTooShort: 'core.validation.passwordTooShort',
  PasswordCharacters: 'core.validation.passwordInvalidChars',
  PasswordComposition: 'core.validation.passwordComposition',
};

/** A failed call as the page shows it; a wrong code keeps the service's text, which counts the tries left. */
function failure(error: RequestError): Failure | undefined {
  if (errorCodeOf(error) === 'VerificationCodeIncorrect') {
    const message = (error.data as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' && message ? { text: message } : { id: 'reset-password.error.codeIncorrect' };
  }
  return failureOf(error, RESET_PASSWORD_ERROR_MESSAGES, 'reset-password.error.network');
}

/**
 * The forgot-password wizard: confirm the account (slider) → mailed code → new password → done.
 * The flow id and the reset ticket live in this store's memory only: never in the URL or any storage.
 */
export class ResetPasswordStore extends SectionStore {
  /** The step on screen. */
  step: RecoveryStep = 'account';
  /** The account being recovered, as confirmed with "Next"; '' until then (the slider shows once it is set). */
  username = '';
  /** Where the code goes: the account's e-mail, masked by the service. */
  email = '';
  /** What went wrong last, shown above the step (none for a ≥ 500: the central notice shows it). */
  failure: Failure | null = null;
  /** Bumped whenever the slider must show a fresh puzzle (its pass was spent or refused). */
  captchaRound = 0;
  /** Bumped when the entered code is used up, so the page clears the code field. */
  codeRound = 0;
  /** A code was mailed in this flow; the button then offers a resend. */
  codeSent = false;
  /** Local time (ms) from which a new code may be asked for; null when no countdown runs. */
  resendAvailableAt: number | null = null;
  /** A code mail is being asked for (the send button spins, apart from the step's main button). */
  sending = false;
  /** The injected clock of the resend countdown (Date.now in the app). */
  readonly clock: Clock;
  private flow: string | null = null;
  private ticket: string | null = null;
  private readonly api: ReturnType<typeof resetPasswordApi>;

  constructor(client: RequestClient, clock: Clock = Date.now) {
    super();
    this.api = resetPasswordApi(client);
    this.clock = clock;
    annotate<ResetPasswordStore, 'flow' | 'ticket'>(this, {
      observable: [
        'step',
        'username',
        'email',
        'failure',
        'captchaRound',
        'codeRound',
        'codeSent',
        'resendAvailableAt',
        'sending',
        'flow',
        'ticket',
      ],
      action: ['chooseAccount', 'confirmAccount', 'sendCode', 'verifyCode', 'resetPassword', 'restart', 'leave'],
    });
  }

  /** "Next" on the first step: the slider shows for this name (a new name gets a new puzzle). */
  chooseAccount(username: string): void {
    const name = username.trim();
    if (!name) return;
    this.failure = null;
    if (name === this.username) this.captchaRound++;
    this.username = name;
  }

  /** The slider was solved: checks the account with the pass, then opens the recovery with it (spent there). */
  async confirmAccount(pass: string): Promise<void> {
    const name = this.username;
    if (!name) return;
    this.failure = null;
    const checked = await this.saveWith(this.api.check(name, pass), { failure });
    const opened = checked.ok
      ? await this.saveWith(this.api.retrieve(name, pass), {
          failure,
          apply: (flow) => {
            this.flow = flow.flow;
            this.email = flow.email;
            this.codeSent = false;
            this.resendAvailableAt = null;
            this.step = 'verify';
          },
        })
      : checked;
    if (!opened.ok)
      runInAction(() => {
        this.failure = opened.failure ?? null;
        this.captchaRound++;
      });
  }

  /** Mails a (new) code; the resend countdown follows the service's clock, carried over to the browser's. */
  async sendCode(): Promise<void> {
    const flow = this.flow;
    if (!flow || this.sending) return;
    this.failure = null;
    let code: string | undefined;
    const r = await this.saveWith(this.api.sendCode(this.username, flow), {
      busy: (on) => (this.sending = on),
      failure: (error) => {
        code = errorCodeOf(error);
        return failure(error);
      },
      apply: (sent) => {
        this.codeSent = true;
        this.email = sent.email;
        // The code was issued with this answer, so the service's "now" is its expiry minus its validity.
        const serverNow = sent.code_expires_at - RECOVERY_CODE_TTL_MS;
        this.resendAvailableAt = this.clock() + Math.max(0, sent.resend_available_at - serverNow);
      },
    });
    if (!r.ok) this.fail(r.failure, code);
  }

  /** Checks the entered code; a right one leads to the new password. */
  async verifyCode(value: string): Promise<void> {
    const flow = this.flow;
    const entered = value.trim();
    if (!flow) return;
    const invalid = validateVerificationCode(entered);
    if (invalid) {
      this.failure = { id: invalid };
      return;
    }
    this.failure = null;
    let code: string | undefined;
    const r = await this.saveWith(this.api.verifyCode(this.username, flow, entered), {
      failure: (error) => {
        code = errorCodeOf(error);
        return failure(error);
      },
      apply: (ticket) => {
        this.ticket = ticket.ticket;
        this.step = 'reset';
      },
    });
    if (!r.ok) this.fail(r.failure, code);
  }

  /** Sets the new password with the ticket; the flow ends, whatever the account's other sessions were. */
  async resetPassword(newPassword: string): Promise<void> {
    const ticket = this.ticket;
    if (!ticket) return;
    this.failure = null;
    let code: string | undefined;
    const r = await this.saveWith(this.api.reset(this.username, ticket, newPassword), {
      failure: (error) => {
        code = errorCodeOf(error);
        return failure(error);
      },
      apply: () => {
        this.ticket = null;
        this.flow = null;
        this.step = 'done';
      },
    });
    if (!r.ok) this.fail(r.failure, code);
  }

  /** Back to the first step, forgetting the flow and ticket (the name stays, a fresh slider shows). */
  restart(failure: Failure | null = null): void {
    this.flow = null;
    this.ticket = null;
    this.email = '';
    this.codeSent = false;
    this.resendAvailableAt = null;
    this.step = 'account';
    this.failure = failure;
    this.captchaRound++;
  }

  /** The page was left: nothing of this recovery (name, flow, ticket) outlives it. */
  leave(): void {
    this.restart();
    this.username = '';
    this.failure = null;
  }

  private fail(shown: Failure | undefined, code: string | undefined): void {
    runInAction(() => {
      // The flow or ticket is gone on the service: only a new verification helps.
      if (code === 'RecoveryPageInvalid') this.restart(shown ?? null);
      else {
        this.failure = shown ?? null;
        // A used-up code cannot be corrected: the field empties for the next one.
        if (code === 'VerificationCodeExhausted') this.codeRound++;
      }
    });
  }
}

/** Built when the wizard first asks for it (`useStore('resetPassword')`). */
const createResetPasswordStore: StoreFactory<ResetPasswordStore> = (core) => new ResetPasswordStore(core.client);
export default createResetPasswordStore;
