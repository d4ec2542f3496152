import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../schemas/common';
import { PASSWORD_MAX_LENGTH } from '../../schemas/password-rule';
import { MeSchema } from '../../schemas/session';
import { LOGIN_PASSWORD_INPUT_MAX, NEXT_URL_MAX, USERNAME_INPUT_MAX } from './limits';

/**
 * The sign-in slice's wire shapes, once: the routes hand these schemas to Fastify, the service and
 * the page use their static types (the page with `import type` only; plain limits come from `./limits`).
 */
export * from './limits';

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

/** Password change body (`old_password` only when the account has one); the rule is checked by the service. */
export const ChangePasswordBodySchema = Type.Object(
  {
    new_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
    old_password: Type.Optional(Type.String({ maxLength: LOGIN_PASSWORD_INPUT_MAX })),
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
