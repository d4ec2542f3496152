import type {
  AuthenticationOptions,
  AuthenticationResponse,
  FactorMethod,
  FactorProof,
  RegistrationOptions,
  RegistrationResponse,
} from '../../../schemas/second-factor';

/**
 * The second factor as the core offers it (`ctx.secondFactors`): the account's authenticator app, passkeys and
 * recovery codes, kept in core tables (migration 070) because the sign-in (login slice), the recovery (reset-password
 * slice), the security page (security slice), the organisation policy (tenant hook) and the session store all ask.
 * Nothing here counts attempts: a caller judging an answer goes through `judgeFactor` (./challenge.ts), which holds
 * the account's lockout slot. Secrets never leave: the app's secret is shown once at enrolment, recovery codes once
 * when made; neither is logged.
 */
export interface SecondFactors {
  /** The methods the account can answer a challenge with; empty when it has no second factor. */
  methodsOf(userId: string): Promise<FactorMethod[]>;
  /** True when the account has a confirmed app or a passkey (recovery codes alone are no factor). */
  hasFactor(userId: string): Promise<boolean>;
  /** What the security page shows: the app (when set up), the passkeys, the recovery codes left. */
  summary(userId: string): Promise<FactorSummary>;

  /** Starts (or restarts) setting up the app: a new secret, kept encrypted and unconfirmed until `confirmTotp`. */
  startTotp(user: FactorUser): Promise<TotpEnrolment>;
  /** Confirms the waiting secret with a first code (its step then counts as used); false when wrong or none waits. */
  confirmTotp(userId: string, code: string): Promise<boolean>;
  /** Removes the app; false when it had none. */
  removeTotp(userId: string): Promise<boolean>;

  /** Options to register a passkey (its existing ones excluded); the challenge is stored single use. */
  registrationOptions(user: FactorUser): Promise<RegistrationOptions>;
  /** Verifies and stores a new passkey; null when the answer does not verify (challenge, origin, rp id, attestation). */
  register(userId: string, response: RegistrationResponse, name: string): Promise<PasskeyInfo | null>;
  /** Renames one of the account's passkeys; null when the id is not the account's. */
  renamePasskey(userId: string, id: string, name: string): Promise<PasskeyInfo | null>;
  /** Removes one of the account's passkeys; null when the id is not the account's. */
  removePasskey(userId: string, id: string): Promise<PasskeyInfo | null>;

  /**
   * Options to assert with: the account's passkeys allowed (a second factor), or, with null, any discoverable one
   * (a passkey sign-in, the account told by the answer). The challenge is stored single use for that account (or
   * for anyone) and `WEBAUTHN_CHALLENGE_SECONDS`.
   */
  assertionOptions(userId: string | null): Promise<AuthenticationOptions>;
  /**
   * Judges one answer for the account, with no counting (see `judgeFactor`): a code of the app (±1 step, each step
   * once), an unused recovery code (spent), or an assertion (challenge issued for this account and unspent, origin
   * and rp id from PUBLIC_URL, the account's own credential, signature, counter moving forward).
   */
  verify(userId: string, proof: FactorProof): Promise<boolean>;
  /** A passkey sign-in: the account whose discoverable credential made the assertion, or null (refused). */
  verifyPasswordless(response: AuthenticationResponse): Promise<string | null>;

  /** Makes ten new recovery codes (the old ones stop working); answers them in plain text, once. */
  newRecoveryCodes(userId: string): Promise<string[]>;
  /** Removes every factor and recovery code of the account (admin, after identity proofing); what was removed. */
  removeAll(userId: string): Promise<FactorSummary>;
}

/** The account a factor is made for: its id, and the names the app and the passkey show. */
export interface FactorUser {
  id: string;
  username: string;
  /** Display name (may be empty). */
  name: string;
}

/** A new app secret, shown once: base32 text and the `otpauth://` URI its QR code encodes. */
export interface TotpEnrolment {
  secret: string;
  uri: string;
}

/** One passkey or security key as its owner sees it. */
export interface PasskeyInfo {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** True when it can sign in without a name (discoverable credential). */
  discoverable: boolean;
}

/** The account's factors. */
export interface FactorSummary {
  /** When the app was set up (confirmed); null without one. */
  totpSince: number | null;
  passkeys: PasskeyInfo[];
  /** Unused recovery codes. */
  recoveryCodesLeft: number;
}
