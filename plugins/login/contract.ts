import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../schemas/common';
import { PASSWORD_MAX_LENGTH } from '../../schemas/password-rule';
import { EMAIL_CODE_LENGTH } from '../../schemas/email-code';
import { MeSchema } from '../../schemas/session';
import { AuthenticationResponseSchema, FactorChallengeSchema, type FactorChallenge } from '../../schemas/second-factor';
import { OAUTH_PROVIDERS, ORG_ID_PATTERN } from '../../schemas/sign-in';
import { LOGIN_PASSWORD_INPUT_MAX, NEXT_URL_MAX, USERNAME_INPUT_MAX } from './limits';

/**
 * The sign-in slice's wire shapes, once: the routes hand these schemas to Fastify, the service and
 * the page use their static types (the page with `import type` only; plain limits come from `./limits`).
 */
export * from './limits';
/** Directory kinds, third-party providers, the failure pages and the page config's `signIn` (a core shape). */
export * from '../../schemas/sign-in';

/** How a sign-in checks the password: the account's own, or a directory's (LDAP, Windows AD). */
export const SIGN_IN_METHODS = ['password', 'ldap', 'ad'] as const;
/** One sign-in method of the login form. */
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** Sign-in request body. */
export const LoginBodySchema = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: USERNAME_INPUT_MAX }),
    password: Type.String({ minLength: 1, maxLength: LOGIN_PASSWORD_INPUT_MAX }),
    captcha_pass: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'A slider pass for this username; required once `check` answers need_captcha',
      }),
    ),
    method: Type.Optional(
      Type.Union(
        SIGN_IN_METHODS.map((m) => Type.Literal(m)),
        { description: "Whose password it is: the account's (default) or a directory's (`ldap`, `ad`)" },
      ),
    ),
    org_id: Type.Optional(
      Type.String({
        pattern: ORG_ID_PATTERN,
        description: "With a directory method: the organisation whose directory to use (else the instance's)",
      }),
    ),
    bind_pending: Type.Optional(
      Type.Boolean({
        description:
          'Bind the third-party account waiting in this browser (`GET /users/ajax/login/pending-bind`) to the ' +
          'account that signs in',
      }),
    ),
  },
  closed,
);
/** What a sign-in sends. */
export type LoginBody = Static<typeof LoginBodySchema>;

/** Sign-in answer: who signed in, whether a password change is forced, and the CSRF token of the new session. */
export const LoginResultSchema = Type.Object(
  {
    user: MeSchema,
    must_change_password: Type.Boolean({ description: 'The password must be changed before going on' }),
    csrf_token: Type.String({
      description: 'CSRF token of the session just created (the page has none before sign-in)',
    }),
  },
  closed,
);
/** What a successful sign-in answers. */
export type LoginResult = Static<typeof LoginResultSchema>;

/**
 * The first step passed, the second is due (issue 41): the account has a second factor, so no session exists yet.
 * An httpOnly cookie names the waiting sign-in in this browser; `POST /users/ajax/login/second-factor` (a
 * `FactorProof`) ends it with a `LoginResult`. Third-party sign-ins land on the sign-in page with the step in its
 * first render (page data `login.secondFactor`).
 */
export const SecondFactorStepSchema = Type.Object({ second_factor: FactorChallengeSchema }, closed);
/** The answer of a first step that needs a second. */
export type SecondFactorStep = Static<typeof SecondFactorStepSchema>;

/** What `POST /users/ajax/login` answers: signed in, or the second step due. */
export const LoginAnswerSchema = Type.Union([LoginResultSchema, SecondFactorStepSchema]);
/** Signed in, or the second step due. */
export type LoginAnswer = Static<typeof LoginAnswerSchema>;

/** A passkey sign-in (no name, no password): the assertion of a discoverable credential. */
export const PasskeySignInBodySchema = Type.Object({ response: AuthenticationResponseSchema }, closed);
/** What a passkey sign-in sends. */
export type PasskeySignInBody = Static<typeof PasskeySignInBodySchema>;

/**
 * Password change body; the rule is checked by the service. A change proves the account: `old_password` is its
 * current password when it has one. Its first password needs the same proof as an e-mail change: a directory
 * account's directory password (in `old_password`), else the `code` mailed to its current address
 * (`emails:code` with purpose `password`); an account with neither a password nor an address has nothing to prove
 * with.
 */
export const ChangePasswordBodySchema = Type.Object(
  {
    new_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
    old_password: Type.Optional(
      Type.String({
        maxLength: LOGIN_PASSWORD_INPUT_MAX,
        description: 'The current password; for the first password of a directory account, its directory password',
      }),
    ),
    code: Type.Optional(
      Type.String({
        pattern: `^[0-9]{${EMAIL_CODE_LENGTH}}$`,
        description: 'For the first password of an account with an address: the code mailed there (purpose password)',
      }),
    ),
  },
  closed,
);
/** What a password change sends. */
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;

/** Device headers the suite sends with a password change. */
export const ChangePasswordHeadersSchema = Type.Object({
  user_agent: Type.Optional(Type.String()),
  'umid-token': Type.Optional(Type.String()),
});

/** The account name whose sign-in availability is checked. */
export const UsernameCheckParamsSchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: USERNAME_INPUT_MAX }),
});
/** A slider pass solved for the name: with it, the check also says whether the account exists and has an e-mail. */
export const UsernameCheckHeadersSchema = Type.Object({
  'x-captcha-pass': Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});
/** The check's answer is a core shape: the recovery wizard reads it too (schemas/account-check.ts). */
export { UsernameCheckAnswerSchema, type UsernameCheckAnswer } from '../../schemas/account-check';

/** Logout query: where to go afterwards (validated against the allowed hosts). */
export const LogoutQuerySchema = Type.Object({ next: Type.Optional(Type.String({ maxLength: NEXT_URL_MAX })) }, closed);
/** Static type of the logout query. */
export type LogoutQuery = Static<typeof LogoutQuerySchema>;

/**
 * Logout body (the confirmation page's form, or a call): the session's CSRF token (a call may send it as
 * X-CSRF-Token instead) and where to go afterwards.
 */
export const LogoutBodySchema = Type.Object(
  {
    csrf_token: Type.Optional(Type.String({ maxLength: 200 })),
    next: Type.Optional(Type.String({ maxLength: NEXT_URL_MAX })),
  },
  closed,
);
/** Static type of the logout body. */
export type LogoutBody = Static<typeof LogoutBodySchema>;

/** A third-party account that signed in unbound and waits, in this browser, for a password sign-in to bind it. */
export const PendingBindSchema = Type.Object(
  {
    provider: Type.Union(OAUTH_PROVIDERS.map((p) => Type.Literal(p))),
    open_id: Type.String({ description: 'The account id at the provider' }),
    name: Type.String({ description: 'The display name the provider gave (may be empty)' }),
  },
  closed,
);
/** The third-party account waiting to be bound. */
export type PendingBind = Static<typeof PendingBindSchema>;

/**
 * What the sign-in page's first render brings (page data `login`), each only when its cookie is in the browser:
 * the third-party account waiting to be bound, and the sign-in waiting for its second factor (a third-party sign-in
 * lands on the page with it); null when the cookie names nothing live any more.
 */
export interface LoginPageData {
  /** The third-party account waiting to be bound by a password sign-in. */
  pendingBind?: PendingBind | null;
  /** The second step due in this browser: answer it with `SECOND_STEP_PATHS.secondFactor`. */
  secondFactor?: FactorChallenge | null;
}
