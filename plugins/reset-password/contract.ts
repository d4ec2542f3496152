import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../schemas/common';
import { CaptchaPassSchema } from '../../schemas/captcha';
import { PASSWORD_MAX_LENGTH } from '../../schemas/password-rule';
import { FactorChallengeSchema, FactorProofSchema } from '../../schemas/second-factor';
import { RECOVERY_CODE_LENGTH, RECOVERY_ID_MAX } from './limits';

/**
 * The password-recovery wizard's wire shapes: confirm the account (slider pass) → mailed code → new password.
 * The page imports these as types only; plain limits come from `./limits`.
 */
export * from './limits';

/** The account name a recovery call is about (the path's `{username}`). */
export const RecoveryParamsSchema = Type.Object({ username: Type.String({ minLength: 1, maxLength: 256 }) });
/** Static type of the path params. */
export type RecoveryParams = Static<typeof RecoveryParamsSchema>;

const FlowId = Type.String({ minLength: 1, maxLength: RECOVERY_ID_MAX });

/** Starts a recovery: a slider pass solved for this username (spent here). */
export const RetrieveBodySchema = Type.Object({ captcha_pass: CaptchaPassSchema }, closed);
/** Static type of the start body. */
export type RetrieveBody = Static<typeof RetrieveBodySchema>;

/** A started recovery: the flow id the next calls carry, and where the code will go (masked). */
export const RecoveryFlowSchema = Type.Object(
  {
    flow: Type.String({ description: 'Names this recovery in the next calls; keep it in memory only' }),
    email: Type.String({ description: 'The account e-mail, masked (a***@example.com)' }),
    expires_at: Type.Number(),
  },
  closed,
);
/** Static type of a started recovery. */
export type RecoveryFlow = Static<typeof RecoveryFlowSchema>;

/** Asks for a (new) mailed code. */
export const EmailCaptchaBodySchema = Type.Object({ flow: FlowId }, closed);
/** Static type of the code request. */
export type EmailCaptchaBody = Static<typeof EmailCaptchaBodySchema>;

/** A code was mailed: where to, until when it is valid, and when the next one may be asked for. */
export const EmailCaptchaSentSchema = Type.Object(
  {
    email: Type.String(),
    code_expires_at: Type.Number(),
    resend_available_at: Type.Number({ description: 'Epoch ms; the page counts the seconds down to it' }),
  },
  closed,
);
/** Static type of the code answer. */
export type EmailCaptchaSent = Static<typeof EmailCaptchaSentSchema>;

/** Checks a mailed code. */
export const EmailCaptchaVerifyBodySchema = Type.Object(
  {
    flow: FlowId,
    code: Type.String({ pattern: `^[0-9]{${RECOVERY_CODE_LENGTH}}$` }),
  },
  closed,
);
/** Static type of the code check. */
export type EmailCaptchaVerifyBody = Static<typeof EmailCaptchaVerifyBodySchema>;

/**
 * The one-time ticket a right code earns: it allows one password reset. An account with a second factor (issue 41)
 * must answer it too before the reset can end: `second_factor` says with what (the reset's `second_factor`; a
 * passkey's options come from `recoveryFactorOptionsPath`).
 */
export const ResetTicketSchema = Type.Object(
  {
    ticket: Type.String({ description: 'Single use; send with password:reset' }),
    expires_at: Type.Number(),
    second_factor: Type.Optional(FactorChallengeSchema),
  },
  closed,
);
/** Static type of the ticket answer. */
export type ResetTicket = Static<typeof ResetTicketSchema>;

/** Sets the new password with the ticket. */
export const PasswordResetBodySchema = Type.Object(
  {
    ticket: Type.String({ minLength: 1, maxLength: RECOVERY_ID_MAX }),
    new_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
    second_factor: Type.Optional(FactorProofSchema),
  },
  closed,
);
/** Static type of the reset body. */
export type PasswordResetBody = Static<typeof PasswordResetBodySchema>;

/** Asks for WebAuthn options to answer the recovery's second factor with a passkey: the reset ticket names it. */
export const RecoveryFactorOptionsBodySchema = Type.Object(
  { ticket: Type.String({ minLength: 1, maxLength: RECOVERY_ID_MAX }) },
  closed,
);
/** Static type of the options request. */
export type RecoveryFactorOptionsBody = Static<typeof RecoveryFactorOptionsBodySchema>;
