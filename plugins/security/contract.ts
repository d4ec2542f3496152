import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../schemas/common';
import {
  FAILURE_REASONS,
  REVOKE_STALE_ITEMS_MAX,
  HISTORY_CURSOR_MAX,
  HISTORY_GROUPS,
  HISTORY_KINDS,
  HISTORY_PAGE_MAX,
  SECURITY_ID_MAX,
} from './limits';
import { FactorNameSchema, RegistrationResponseSchema, TOTP_CODE_PATTERN } from '../../schemas/second-factor';
import { CREDENTIAL_REFUSALS, CredentialHealthItemSchema, CredentialKindSchema } from '../../schemas/credential-uses';

/**
 * The security slice's wire shapes, once: the account's sessions, the browsers the lockout trusts, the account's
 * history and "this wasn't me". The routes hand these schemas to Fastify; the page uses their static types with
 * `import type` only (plain limits come from `./limits`). Every call is the signed-in member's own, under
 * `/users/ajax/v1/my/`; the calls that change something need a recent proof (403 `ReauthRequired` without one, see
 * `schemas/reauth.ts`).
 */
export * from './limits';
/** The second factor's core shapes (options, proofs, limits) the page needs too. */
export * from '../../schemas/second-factor';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** A browser as its User-Agent tells it; each part null when it does not. */
export const BrowserSchema = Type.Object(
  {
    name: Nullable(Type.String()),
    version: Nullable(Type.String({ description: 'Major version' })),
    os: Nullable(Type.String()),
  },
  closed,
);
/** A browser as the page names it. */
export type Browser = Static<typeof BrowserSchema>;

/**
 * How a session was signed in: the account's password, a directory (LDAP, Windows AD), a third-party provider by its
 * id (dingtalk, lark, wecom…), or the password recovery. Sessions from before this was recorded say `unknown`.
 */
export const SignInMethodSchema = Type.String({
  maxLength: 32,
  description: '`password`, `ldap`, `ad`, a provider id (`dingtalk`, `lark`, `wecom`…), or `unknown`',
});

/** One live session of the account. */
export const SessionInfoSchema = Type.Object(
  {
    id: Type.String({ description: 'A handle for this list and the end call; never the session cookie nor its hash' }),
    browser: BrowserSchema,
    method: SignInMethodSchema,
    address: Nullable(Type.String({ description: 'The client address the session was last active from' })),
    place: Nullable(Type.String({ description: 'Approximate place, only when a local database is configured' })),
    created_at: Type.String({ description: 'ISO time of the sign-in' }),
    last_seen_at: Type.String({ description: 'ISO time of the last request (precise to a minute)' }),
    expires_at: Type.String({ description: 'ISO time it ends if idle from now on (the idle or absolute timeout)' }),
    current: Type.Boolean({ description: 'The session making this call ("this device")' }),
  },
  closed,
);
/** One live session as the page lists it. */
export type SessionInfo = Static<typeof SessionInfoSchema>;

/** The account's sessions, newest first, and the timeouts that end them. */
export const SessionListSchema = Type.Object(
  {
    sessions: Type.Array(SessionInfoSchema),
    idle_timeout_minutes: Type.Integer(),
    absolute_timeout_hours: Type.Integer(),
  },
  closed,
);
/** The account's sessions. */
export type SessionList = Static<typeof SessionListSchema>;

/** The session or trusted browser named in the path. */
export const SecurityIdParamsSchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: SECURITY_ID_MAX, pattern: '^[A-Za-z0-9_-]+$' }) },
  closed,
);
/** Static type of the id path params. */
export type SecurityIdParams = Static<typeof SecurityIdParamsSchema>;

/** How many sessions a call ended. */
export const EndedSchema = Type.Object({ ended: Type.Integer() }, closed);
/** How many sessions a call ended. */
export type Ended = Static<typeof EndedSchema>;

/** One browser the smart lockout trusts for this account (it signed in there; its sign-ins skip the stranger lock). */
export const TrustedBrowserSchema = Type.Object(
  {
    id: Type.String(),
    browser: BrowserSchema,
    first_used_at: Type.String({ description: 'ISO time of the sign-in that marked it' }),
    last_used_at: Type.String({ description: 'ISO time of its latest sign-in' }),
    current: Type.Boolean({ description: 'The browser making this call' }),
  },
  closed,
);
/** One trusted browser. */
export type TrustedBrowser = Static<typeof TrustedBrowserSchema>;

/** The browsers the lockout trusts for the account, most recently used first. */
export const TrustedBrowserListSchema = Type.Object({ browsers: Type.Array(TrustedBrowserSchema) }, closed);
/** The trusted browsers. */
export type TrustedBrowserList = Static<typeof TrustedBrowserListSchema>;

/** What a history entry records. */
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** A group of history kinds the page filters by. */
export type HistoryGroup = (typeof HISTORY_GROUPS)[number];

/** Why a sign-in failed. */
export type FailureReason = (typeof FAILURE_REASONS)[number];

/**
 * What a history entry adds to its kind, each field only where it applies; never a secret (no password, token value,
 * code or cookie): a credential is named by its kind and name, an e-mail by its masked form.
 */
export const HistoryDetailSchema = Type.Object(
  {
    method: Type.Optional(SignInMethodSchema),
    reason: Type.Optional(Type.Union(FAILURE_REASONS.map((r) => Type.Literal(r)))),
    how: Type.Optional(Type.String({ description: 'password.changed: settings, recovery, first-sign-in, admin' })),
    credential: Type.Optional(Type.String({ description: 'credential.*: token, ssh-key, packages-password' })),
    name: Type.Optional(
      Type.String({ description: 'credential.*, second-factor.* (a passkey): the name the member gave it' }),
    ),
    email: Type.Optional(Type.String({ description: 'email.changed: the new address, masked' })),
    by: Type.Optional(
      Type.String({
        description: 'session.ended / account.unlocked / second-factor.removed: member, not-me, admin, time',
      }),
    ),
    count: Type.Optional(
      Type.Integer({ description: 'session.ended: how many sessions ended; recovery-codes.generated: how many made' }),
    ),
    factor: Type.Optional(
      Type.String({
        description:
          'second-factor.*: totp (the authenticator app), webauthn (a passkey), all (an administrator removed every ' +
          'factor); sign-in.succeeded: the second factor answered (totp, webauthn, recovery)',
      }),
    ),
    left: Type.Optional(Type.Integer({ description: 'recovery-code.used: how many unused codes are left' })),
    until: Type.Optional(
      Type.String({ description: 'account.locked: ISO time the lock ends; absent = until unlocked' }),
    ),
    action: Type.Optional(
      Type.String({
        maxLength: 300,
        description: 'credential.refused: what was tried (`git-receive-pack org/repo`, `GET /oapi/v1/…`, `download …`)',
      }),
    ),
    refusal: Type.Optional(
      Type.Union(
        CREDENTIAL_REFUSALS.map((r) => Type.Literal(r)),
        { description: 'credential.refused: why the service refused it' },
      ),
    ),
    revoked: Type.Optional(
      Type.Array(
        Type.Object(
          {
            credential: Type.String({ description: 'token, ssh-key, packages-password, session' }),
            count: Type.Integer(),
          },
          closed,
        ),
        { description: 'credentials.stale-revoked: how many of each kind went' },
      ),
    ),
  },
  closed,
);
/** What a history entry adds to its kind. */
export type HistoryDetail = Static<typeof HistoryDetailSchema>;

/** One entry of the account's history. */
export const HistoryEntrySchema = Type.Object(
  {
    id: Type.String(),
    at: Type.String({ description: 'ISO time' }),
    kind: Type.Union(HISTORY_KINDS.map((k) => Type.Literal(k))),
    detail: HistoryDetailSchema,
    address: Nullable(Type.String()),
    browser: Type.Union([BrowserSchema, Type.Null()]),
  },
  closed,
);
/** One entry of the account's history. */
export type HistoryEntry = Static<typeof HistoryEntrySchema>;

/** Query of the history: a group to filter by, the cursor of the page before, how many. */
export const HistoryQuerySchema = Type.Object(
  {
    group: Type.Optional(Type.Union(HISTORY_GROUPS.map((g) => Type.Literal(g)))),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: HISTORY_CURSOR_MAX })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_PAGE_MAX })),
  },
  closed,
);
/** Query of the history. */
export type HistoryQuery = Static<typeof HistoryQuerySchema>;

/** Query of the history's CSV export: the same filter, every entry of the 90 days. */
export const HistoryExportQuerySchema = Type.Object(
  { group: Type.Optional(Type.Union(HISTORY_GROUPS.map((g) => Type.Literal(g)))) },
  closed,
);
/** Query of the history's export. */
export type HistoryExportQuery = Static<typeof HistoryExportQuerySchema>;

/** One page of history, newest first; `next` is the cursor of the following page, null on the last. */
export const HistoryPageSchema = Type.Object(
  { entries: Type.Array(HistoryEntrySchema), next: Type.Union([Type.String(), Type.Null()]) },
  closed,
);
/** One page of history. */
export type HistoryPage = Static<typeof HistoryPageSchema>;

/** "This wasn't me": whether to lock the account too, until an administrator unlocks it. */
export const NotMeBodySchema = Type.Object({ lock: Type.Boolean() }, closed);
/** Body of "this wasn't me". */
export type NotMeBody = Static<typeof NotMeBodySchema>;

/** What "this wasn't me" did, for the page to say it. */
export const NotMeResultSchema = Type.Object(
  {
    sessions_ended: Type.Integer(),
    /** Credentials revoked or reset, by kind (`token`, `packages-password`…): what the mounted slices hold. */
    credentials: Type.Array(Type.Object({ credential: Type.String(), count: Type.Integer() }, closed)),
    locked: Type.Boolean(),
  },
  closed,
);
/** What "this wasn't me" did. */
export type NotMeResult = Static<typeof NotMeResultSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The second factor (issue 41): the account's authenticator app, passkeys and recovery codes.

/** One passkey or security key as its owner sees it (never its public key). */
export const PasskeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    created_at: Type.String({ description: 'ISO time' }),
    last_used_at: Nullable(Type.String({ description: 'ISO time' })),
    discoverable: Type.Boolean({ description: 'It can sign in without a name (a passkey)' }),
  },
  closed,
);
/** One passkey. */
export type Passkey = Static<typeof PasskeySchema>;

/**
 * `GET twoFactor`: the account's factors, the recovery codes left (the page warns at `RECOVERY_CODES_LOW`), and the
 * nearest deadline an organisation set for having one (null when none asks).
 */
export const TwoFactorStateSchema = Type.Object(
  {
    totp: Type.Union([Type.Object({ since: Type.String({ description: 'ISO time' }) }, closed), Type.Null()]),
    passkeys: Type.Array(PasskeySchema),
    recovery_codes_left: Type.Integer(),
    required_by: Type.Union([
      Type.Object({ org: Type.String(), deadline: Type.String({ description: 'ISO time' }) }, closed),
      Type.Null(),
    ]),
  },
  closed,
);
/** The account's factors. */
export type TwoFactorState = Static<typeof TwoFactorStateSchema>;

/**
 * `POST totp` (re-authentication): a new secret waits to be confirmed; shown once, here: its base32 text, the
 * `otpauth://` URI and that URI's QR code as an SVG document (rendered by the service, so no QR code reaches a bundle).
 */
export const TotpSetupSchema = Type.Object(
  { secret: Type.String(), uri: Type.String(), qr_svg: Type.String() },
  closed,
);
/** A secret waiting to be confirmed. */
export type TotpSetup = Static<typeof TotpSetupSchema>;

/** `POST totpConfirm`: the app's first code. */
export const TotpConfirmBodySchema = Type.Object({ code: Type.String({ pattern: TOTP_CODE_PATTERN }) }, closed);
/** Body of the confirmation. */
export type TotpConfirmBody = Static<typeof TotpConfirmBodySchema>;

/**
 * What adding a factor answers: the new state, and, when it was the account's first factor, its ten recovery codes
 * (shown once; null otherwise).
 */
export const FactorAddedSchema = Type.Object(
  { state: TwoFactorStateSchema, recovery_codes: Type.Union([Type.Array(Type.String()), Type.Null()]) },
  closed,
);
/** A factor added. */
export type FactorAdded = Static<typeof FactorAddedSchema>;

/** `POST passkeys` (re-authentication): the browser's new credential and the name its owner gave it. */
export const PasskeyAddBodySchema = Type.Object(
  { name: FactorNameSchema, response: RegistrationResponseSchema },
  closed,
);
/** Body of a new passkey. */
export type PasskeyAddBody = Static<typeof PasskeyAddBodySchema>;

/** `PATCH passkey`: a new name. */
export const PasskeyRenameBodySchema = Type.Object({ name: FactorNameSchema }, closed);
/** Body of a rename. */
export type PasskeyRenameBody = Static<typeof PasskeyRenameBodySchema>;

/** `POST recoveryCodes` (re-authentication): ten new codes, shown once; the old ones stop working. */
export const RecoveryCodesSchema = Type.Object({ codes: Type.Array(Type.String()) }, closed);
/** New recovery codes. */
export type RecoveryCodes = Static<typeof RecoveryCodesSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Credential health (issue 42): every token, SSH key, the artifact password and the sessions, with their marks.

/** The core's health shapes (an item, its marks) and the plain thresholds, which the page needs too. */
export * from '../../schemas/credential-uses';

/** `GET credentialHealth`: the account's credentials and sessions, each with its marks, as of `checked_at`. */
export const CredentialHealthSchema = Type.Object(
  {
    credentials: Type.Array(CredentialHealthItemSchema),
    /** The id of the session making the call (listed among the sessions, never stale, never revoked). */
    current_session: Nullable(Type.String()),
    checked_at: Type.String({ description: 'ISO time the marks were computed at (the service’s clock)' }),
  },
  closed,
);
/** The account's credential health. */
export type CredentialHealth = Static<typeof CredentialHealthSchema>;

/** A credential named by its kind and id (ids are unique only within a kind). */
export const CredentialRefSchema = Type.Object(
  {
    kind: Type.Union([CredentialKindSchema, Type.Literal('session')]),
    id: Type.String({ minLength: 1, maxLength: 64 }),
  },
  closed,
);
/** A credential named by its kind and id. */
export type CredentialRef = Static<typeof CredentialRefSchema>;

/**
 * `POST revokeStale` (re-authentication): revokes what is stale *now*. With `items` (what the page showed and its owner
 * confirmed), only those of them that are still stale: one used meanwhile stays, and one that went stale meanwhile
 * waits for the next look. Without `items`, every credential stale now. Never the calling session.
 */
export const RevokeStaleBodySchema = Type.Object(
  { items: Type.Optional(Type.Array(CredentialRefSchema, { maxItems: REVOKE_STALE_ITEMS_MAX })) },
  closed,
);
/** Body of "revoke all stale". */
export type RevokeStaleBody = Static<typeof RevokeStaleBodySchema>;

/** What "revoke all stale" revoked, and how many named credentials it kept (used meanwhile, or already gone). */
export const RevokeStaleResultSchema = Type.Object(
  {
    revoked: Type.Array(
      Type.Object({ kind: CredentialRefSchema.properties.kind, id: Type.String(), name: Type.String() }, closed),
    ),
    kept: Type.Integer({ description: 'Named in `items` but not revoked: no longer stale, or gone' }),
  },
  closed,
);
/** What "revoke all stale" did. */
export type RevokeStaleResult = Static<typeof RevokeStaleResultSchema>;
