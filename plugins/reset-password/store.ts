import { runInAction } from 'mobx';
import type { Clock } from '../../src/core/captcha/crypto';
import { errorCodeOf, type RequestClient, type RequestError } from '../../src/core/request';
import { failureOf, type Failure } from '../../src/core/stores/failure';
import { annotate, SectionStore } from '../../src/core/stores/resource';
import type { StoreFactory } from '../../src/core/stores/root';
import { validateVerificationCode } from '../../src/core/validation';
import { assertWithPasskey, passkeyFailure } from '../../src/core/webauthn';
import type { FactorCodeProof } from '../../src/core/ui/SecondFactorForm';
import { TOTP_DRIFT_STEPS, TOTP_PERIOD_SECONDS } from '../../schemas/second-factor-limits';
import type { FactorChallenge, FactorProof } from '../../schemas/second-factor';
import { resetPasswordApi } from './api';
import { RECOVERY_CODE_TTL_MS } from './limits';

/**
 * The wizard's steps, in order; `factor` only for an account with a second factor (issue 41); `done` is the closing
 * screen after the reset.
 */
export type RecoveryStep = 'account' | 'verify' | 'factor' | 'reset' | 'done';

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
  RecoveryFactorWrong: 'reset-password.error.factorWrong',
  SecondFactorRequired: 'reset-password.error.factorRequired',
  RecoveryAccountLocked: 'reset-password.error.locked',
};

/** Answers of the reset that ask for the second factor again (the new password is kept for it). */
const FACTOR_AGAIN_CODES = new Set(['RecoveryFactorWrong', 'SecondFactorRequired']);
/** Answers after which this recovery cannot end: the wizard starts over, saying why. */
const RESTART_CODES = new Set(['RecoveryPageInvalid', 'RecoveryAccountLocked']);

/** The authenticator app's time step a moment falls in (RFC 6238). */
const totpStep = (ms: number) => Math.floor(ms / (TOTP_PERIOD_SECONDS * 1000));

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
  /** The account's second factor, due with the reset (what the ticket's answer said); null for an account without. */
  secondFactor: FactorChallenge | null = null;
  /** Bumped when the factor must be given again, so the factor step's field empties. */
  factorRound = 0;
  /** A passkey is being asked for (the factor step's passkey button spins). */
  passkeyPending = false;
  /** The injected clock of the resend countdown (Date.now in the app). */
  readonly clock: Clock;
  private flow: string | null = null;
  private ticket: string | null = null;
  /** The factor's answer, sent with the reset; in memory only. */
  private proof: FactorProof | null = null;
  /** When a typed code was taken (clock ms): an app's code ages with its time step. */
  private proofAt = 0;
  /** The new password of a reset the factor held up: the next answer to the factor sends it at once. */
  private heldPassword: string | null = null;
  private readonly api: ReturnType<typeof resetPasswordApi>;

  constructor(client: RequestClient, clock: Clock = Date.now) {
    super();
    this.api = resetPasswordApi(client);
    this.clock = clock;
    annotate<ResetPasswordStore, 'flow' | 'ticket' | 'proof' | 'heldPassword'>(this, {
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
        'secondFactor',
        'factorRound',
        'passkeyPending',
        'proof',
        'heldPassword',
      ],
      action: [
        'chooseAccount',
        'confirmAccount',
        'sendCode',
        'verifyCode',
        'resetPassword',
        'restart',
        'leave',
        'answerWithCode',
        'answerWithPasskey',
        'clearFailure',
      ],
      computed: ['passwordKept'],
    });
  }

  /** The new password is kept from a reset the factor held up: answering the factor resets at once. */
  get passwordKept(): boolean {
    return this.heldPassword !== null;
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
        // A mailbox alone does not hand back an account with a second factor: it is asked for before the password.
        this.secondFactor = ticket.second_factor ?? null;
        this.step = ticket.second_factor ? 'factor' : 'reset';
      },
    });
    if (!r.ok) this.fail(r.failure, code);
  }

  /** Forgets the last failure (the member turned to another way of answering, where it does not apply). */
  clearFailure(): void {
    this.failure = null;
  }

  /** The factor step's code (the app's or a recovery code): kept for the reset, which it goes with. */
  async answerWithCode(proof: FactorCodeProof): Promise<void> {
    if (this.step !== 'factor') return;
    this.failure = null;
    this.proof = proof;
    this.proofAt = this.clock();
    await this.afterFactor();
  }

  /**
   * The factor step's passkey: options for the account's passkeys (the ticket names it), the browser's prompt; the
   * assertion goes with the reset. A closed prompt shows nothing.
   */
  async answerWithPasskey(): Promise<void> {
    const ticket = this.ticket;
    if (!ticket || this.step !== 'factor' || this.passkeyPending) return;
    this.failure = null;
    this.passkeyPending = true;
    const [error, options] = await this.api.factorOptions(this.username, ticket);
    const asserted = error ? null : await assertWithPasskey(options);
    runInAction(() => {
      this.passkeyPending = false;
      if (error) this.fail(failure(error), errorCodeOf(error));
      else if (asserted && !asserted.ok) this.failure = passkeyFailure(asserted.reason);
    });
    if (!asserted?.ok) return;
    runInAction(() => {
      this.proof = { method: 'webauthn', response: asserted.response };
      this.proofAt = this.clock();
    });
    await this.afterFactor();
  }

  /**
   * Sets the new password with the ticket (and the second factor's answer, for an account with one); the flow ends,
   * whatever the account's other sessions were. A factor refused sends the wizard back to it, the password kept.
   */
  async resetPassword(newPassword: string): Promise<void> {
    const ticket = this.ticket;
    if (!ticket) return;
    this.failure = null;
    const proof = this.proof;
    if (this.secondFactor && (!proof || this.aged(proof))) {
      // An app's code from a time step the service no longer accepts would be refused and count as a wrong guess:
      // the current one is asked for instead (the password is kept, so that code resets at once).
      this.factorAgain(newPassword, proof ? { id: 'reset-password.error.factorAged' } : null);
      return;
    }
    let code: string | undefined;
    const r = await this.saveWith(this.api.reset(this.username, ticket, newPassword, proof ?? undefined), {
      failure: (error) => {
        code = errorCodeOf(error);
        return failure(error);
      },
      apply: () => {
        this.forgetFactor();
        this.ticket = null;
        this.flow = null;
        this.step = 'done';
      },
    });
    if (r.ok) return;
    if (code && FACTOR_AGAIN_CODES.has(code)) runInAction(() => this.factorAgain(newPassword, r.failure ?? null));
    else this.fail(r.failure, code);
  }

  /** Back to the first step, forgetting the flow and ticket (the name stays, a fresh slider shows). */
  restart(failure: Failure | null = null): void {
    this.forgetFactor();
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

  /** After the factor's answer: the new password next, or, when one is kept, the reset at once. */
  private async afterFactor(): Promise<void> {
    const held = this.heldPassword;
    if (held === null) runInAction(() => (this.step = 'reset'));
    else await this.resetPassword(held);
  }

  /** A typed app code whose time step the service no longer accepts (it takes one step either side of now). */
  private aged(proof: FactorProof): boolean {
    return proof.method === 'totp' && totpStep(this.clock()) > totpStep(this.proofAt) + TOTP_DRIFT_STEPS;
  }

  /** Back to the factor step with the new password kept, saying why (nothing for a first ask). */
  private factorAgain(newPassword: string, shown: Failure | null): void {
    this.heldPassword = newPassword;
    this.proof = null;
    this.step = 'factor';
    this.failure = shown;
    this.factorRound++;
  }

  /** Nothing of the second factor (its answer, the kept password) outlives the ticket. */
  private forgetFactor(): void {
    this.secondFactor = null;
    this.proof = null;
    this.heldPassword = null;
    this.passkeyPending = false;
  }

  private fail(shown: Failure | undefined, code: string | undefined): void {
    runInAction(() => {
      // The flow or ticket is gone on the service, or the account locked: only a new verification helps.
      if (code && RESTART_CODES.has(code)) this.restart(shown ?? null);
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
