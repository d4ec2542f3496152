import { Type, type Static } from '@sinclair/typebox';
import { closed } from './common';

/**
 * The second factor (issue 41), a core service like re-authentication: an account may add an authenticator app
 * (TOTP, RFC 6238), passkeys and security keys (WebAuthn) and gets ten recovery codes with its first factor. Every way
 * in (password, directory password, third-party sign-in, passkey sign-in aside) then asks for one of them before any
 * session exists, and password recovery asks for one before the reset. Wire shapes the sign-in page, the recovery
 * wizard and the security page share; plain limits live in `./second-factor-limits` (safe in any bundle).
 */

export * from './second-factor-limits';
import {
  FACTOR_NAME_MAX,
  RECOVERY_CODE_INPUT_PATTERN,
  TOTP_CODE_PATTERN,
  WEBAUTHN_FIELD_MAX,
  WEBAUTHN_ID_MAX,
} from './second-factor-limits';

/** A way to answer a second-factor challenge. */
export const FactorMethodSchema = Type.Union([
  Type.Literal('totp'),
  Type.Literal('webauthn'),
  Type.Literal('recovery'),
]);
/** `totp`: a code of the authenticator app; `webauthn`: a passkey or security key; `recovery`: a recovery code. */
export type FactorMethod = Static<typeof FactorMethodSchema>;

const B64url = (max = WEBAUTHN_FIELD_MAX) => Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+$' });

/** What `navigator.credentials.get` answered, as `@simplewebauthn/browser`'s `startAuthentication` encodes it. */
export const AuthenticationResponseSchema = Type.Object(
  {
    id: B64url(WEBAUTHN_ID_MAX),
    rawId: B64url(WEBAUTHN_ID_MAX),
    response: Type.Object(
      {
        clientDataJSON: B64url(),
        authenticatorData: B64url(),
        signature: B64url(),
        userHandle: Type.Optional(B64url(WEBAUTHN_ID_MAX)),
      },
      closed,
    ),
    authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
    clientExtensionResults: Type.Object({}, { additionalProperties: true, maxProperties: 16 }),
    type: Type.Literal('public-key'),
  },
  closed,
);
/** A WebAuthn assertion as the browser sends it. */
export type AuthenticationResponse = Static<typeof AuthenticationResponseSchema>;

/** What `navigator.credentials.create` answered, as `@simplewebauthn/browser`'s `startRegistration` encodes it. */
export const RegistrationResponseSchema = Type.Object(
  {
    id: B64url(WEBAUTHN_ID_MAX),
    rawId: B64url(WEBAUTHN_ID_MAX),
    response: Type.Object(
      {
        clientDataJSON: B64url(),
        attestationObject: B64url(),
        authenticatorData: Type.Optional(B64url()),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8 })),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(B64url()),
      },
      closed,
    ),
    authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
    clientExtensionResults: Type.Object({}, { additionalProperties: true, maxProperties: 16 }),
    type: Type.Literal('public-key'),
  },
  closed,
);
/** A new WebAuthn credential as the browser sends it. */
export type RegistrationResponse = Static<typeof RegistrationResponseSchema>;

/** A credential the browser may use, as WebAuthn options name it. */
const CredentialDescriptorSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('public-key'),
    transports: Type.Optional(Type.Array(Type.String())),
  },
  closed,
);

/**
 * Options for `navigator.credentials.get` (`startAuthentication({ optionsJSON })`). The challenge is single use and
 * short lived (`WEBAUTHN_CHALLENGE_SECONDS`); `allowCredentials` is empty for a passkey sign-in (discoverable).
 */
export const AuthenticationOptionsSchema = Type.Object(
  {
    challenge: Type.String(),
    timeout: Type.Optional(Type.Integer()),
    rpId: Type.Optional(Type.String()),
    allowCredentials: Type.Optional(Type.Array(CredentialDescriptorSchema)),
    userVerification: Type.Optional(Type.String()),
  },
  closed,
);
/** Options the browser asserts with. */
export type AuthenticationOptions = Static<typeof AuthenticationOptionsSchema>;

/** Options for `navigator.credentials.create` (`startRegistration({ optionsJSON })`). */
export const RegistrationOptionsSchema = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String()) }, closed),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }, closed),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') }, closed)),
    timeout: Type.Optional(Type.Integer()),
    excludeCredentials: Type.Optional(Type.Array(CredentialDescriptorSchema)),
    authenticatorSelection: Type.Optional(
      Type.Object(
        {
          authenticatorAttachment: Type.Optional(Type.String()),
          requireResidentKey: Type.Optional(Type.Boolean()),
          residentKey: Type.Optional(Type.String()),
          userVerification: Type.Optional(Type.String()),
        },
        closed,
      ),
    ),
    attestation: Type.Optional(Type.String()),
    extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) }, closed)),
  },
  closed,
);
/** Options the browser registers a credential with. */
export type RegistrationOptions = Static<typeof RegistrationOptionsSchema>;

/** An answer to a second-factor challenge: a code of the app, a recovery code, or a WebAuthn assertion. */
export const FactorProofSchema = Type.Union([
  Type.Object({ method: Type.Literal('totp'), code: Type.String({ pattern: TOTP_CODE_PATTERN }) }, closed),
  Type.Object(
    {
      method: Type.Literal('recovery'),
      code: Type.String({ pattern: RECOVERY_CODE_INPUT_PATTERN, description: 'Dashes, spaces and case do not matter' }),
    },
    closed,
  ),
  Type.Object({ method: Type.Literal('webauthn'), response: AuthenticationResponseSchema }, closed),
]);
/** One answer to a second-factor challenge. */
export type FactorProof = Static<typeof FactorProofSchema>;

/**
 * What a sign-in (or a recovery) answers when the account has a second factor: which methods it can answer with.
 * No session exists yet; the sign-in goes on in this browser (an httpOnly cookie names the waiting sign-in) with
 * `POST /users/ajax/login/second-factor`.
 */
export const FactorChallengeSchema = Type.Object(
  {
    methods: Type.Array(FactorMethodSchema, { description: 'What the account can answer with (recovery always)' }),
    expires_at: Type.Number({ description: 'Epoch ms; afterwards the sign-in starts again' }),
  },
  closed,
);
/** A challenge step: the methods the account can answer with. */
export type FactorChallenge = Static<typeof FactorChallengeSchema>;

/** A factor's name as its owner gives it (a passkey's; the app's is fixed). */
export const FactorNameSchema = Type.String({ minLength: 1, maxLength: FACTOR_NAME_MAX });
