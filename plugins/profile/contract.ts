import { Type, type Static } from '@sinclair/typebox';
import { closed, ColorSchemeSchema, LocaleSchema } from '../../schemas/common';
import { EMAIL_CODE_LENGTH, EMAIL_CODE_PURPOSES } from '../../schemas/email-code';
import { AVATAR_URL_MAX, EMAIL_INPUT_MAX, EMAIL_TOKEN_INPUT_MAX, PROFILE_NAME_MAX } from './limits';

/**
 * The profile slice's wire shapes, once: the routes hand these schemas to Fastify, the service and
 * the page use their static types (the page with `import type` only; plain limits come from
 * `./limits`, the avatar sniffing rule from `./avatar`).
 */
export * from './limits';

/** The two languages a user can choose. */
export const ProfileLanguageSchema = LocaleSchema;
/** The two languages a user can choose. */
export type ProfileLanguage = Static<typeof ProfileLanguageSchema>;

/** Body of `PUT /individual/proxy/me`: display name and/or language (the answer is the `Me` shape). */
export const MeUpdateBodySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: PROFILE_NAME_MAX })),
    language: Type.Optional(ProfileLanguageSchema),
  },
  closed,
);
/** What a change of the account fields sends. */
export type MeUpdateBody = Static<typeof MeUpdateBodySchema>;

/**
 * Answer of `GET /users/ajax/v1/my/attributes:bind`: what the account has, so the page asks for the old password
 * only when there is one, and for the directory's password when the account signs in through a directory.
 */
export const BindAttributesSchema = Type.Object(
  {
    has_password: Type.Boolean(),
    directory: Type.Union([Type.String(), Type.Null()], {
      description:
        'Display name of the directory (LDAP, Windows AD) the account signs in through; its password proves a first password',
    }),
    email: Type.Union([Type.String(), Type.Null()]),
    email_verified: Type.Boolean(),
  },
  closed,
);
/** What the account has bound. */
export type BindAttributes = Static<typeof BindAttributesSchema>;

/** Body of the preference and legacy language calls. */
export const LanguageBodySchema = Type.Object({ language: ProfileLanguageSchema }, closed);
/** What a language change sends. */
export type LanguageBody = Static<typeof LanguageBodySchema>;

/** The saved language preference (null until chosen). */
export const LanguageAnswerSchema = Type.Object({ language: Type.Union([ProfileLanguageSchema, Type.Null()]) }, closed);
/** Static type of the language answer. */
export type LanguageAnswer = Static<typeof LanguageAnswerSchema>;

/**
 * Body of `PUT /users/ajax/v1/my/appearance`, and the answer of it and of the GET: the account's colour scheme (what
 * `me` reports as `colorScheme`).
 */
export const AppearanceSchema = Type.Object({ colorScheme: ColorSchemeSchema }, closed);
/** The account's colour scheme, as the appearance calls carry it. */
export type Appearance = Static<typeof AppearanceSchema>;

/** Answer of the avatar upload: the URL to set as avatar. */
export const AvatarUploadAnswerSchema = Type.Object({ url: Type.String() }, closed);
/** Static type of the avatar upload answer. */
export type AvatarUploadAnswer = Static<typeof AvatarUploadAnswerSchema>;

/** Name of a stored avatar in its serving path. */
export const AvatarParamsSchema = Type.Object(
  { name: Type.String({ pattern: '^[0-9a-f]{32}\\.(png|jpg|gif)$' }) },
  closed,
);
/** Static type of the avatar path params. */
export type AvatarParams = Static<typeof AvatarParamsSchema>;

/** Body of `PUT /individual/proxy/my/avatar`: an own upload's URL, or null/"" for the default. */
export const AvatarSetBodySchema = Type.Object(
  { avatar: Type.Union([Type.String({ maxLength: AVATAR_URL_MAX }), Type.Null()]) },
  closed,
);
/** What setting the avatar sends. */
export type AvatarSetBody = Static<typeof AvatarSetBodySchema>;

/**
 * Body of the bind, rebind and unbind e-mail calls. They need a recent proof of the session (re-authentication:
 * 403 ReauthRequired without one; the password, the directory's password or a provider round trip). A change of the
 * address by an account without a password of its own or its directory's also gives the code mailed to its current
 * address (`emails:code`).
 */
export const EmailBodySchema = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: EMAIL_INPUT_MAX }),
    code: Type.Optional(Type.String({ pattern: `^[0-9]{${EMAIL_CODE_LENGTH}}$` })),
  },
  closed,
);
/** What the e-mail calls send. */
export type EmailBody = Static<typeof EmailBodySchema>;

/** What an e-mail change carries besides re-authentication: (an account without a password) the mailed code. */
export type EmailProof = Pick<EmailBody, 'code'>;

/** Body of `POST /users/ajax/v1/my/emails:code` (optional): what the code is to prove; an e-mail change by default. */
export const EmailCodeBodySchema = Type.Object(
  {
    purpose: Type.Optional(
      Type.Union(
        EMAIL_CODE_PURPOSES.map((p) => Type.Literal(p)),
        {
          description:
            '`email`: an e-mail change (default); `password`: setting the first password (`PUT /users/ajax/v1/my/password` ' +
            'with `code`). A code proves only its own purpose, and its mail says which',
        },
      ),
    ),
  },
  closed,
);
/** What asking for a code sends. */
export type EmailCodeBody = Static<typeof EmailCodeBodySchema>;

/** Answer of `POST /users/ajax/v1/my/emails:code`: where the code went (masked) and when another may be sent. */
export const EmailCodeAnswerSchema = Type.Object(
  {
    sent_to: Type.String({ description: 'The current address, masked' }),
    resend_available_at: Type.Number({ description: 'Epoch ms from which another code may be sent' }),
    server_time: Type.Number(),
  },
  closed,
);
/** Where the e-mail change code went. */
export type EmailCodeAnswer = Static<typeof EmailCodeAnswerSchema>;

/** Body of the activation call: the token from the mail. */
export const EmailVerifyBodySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: EMAIL_TOKEN_INPUT_MAX }) },
  closed,
);
/** What the activation call sends. */
export type EmailVerifyBody = Static<typeof EmailVerifyBodySchema>;

/** Answer of the e-mail calls: the address state after the change, and when the next mail may be sent. */
export const EmailStateSchema = Type.Object(
  {
    email: Type.Union([Type.String(), Type.Null()]),
    email_verified: Type.Boolean(),
    resend_available_at: Type.Union([Type.Number(), Type.Null()], {
      description: 'Epoch ms from which a resend is allowed (null: no mail pending)',
    }),
    server_time: Type.Number({
      description: 'Server time of the answer, so the countdown does not depend on the browser’s clock',
    }),
  },
  closed,
);
/** The e-mail state after a change. */
export type EmailState = Static<typeof EmailStateSchema>;
