import { Type, type Static } from '@sinclair/typebox';
import { closed } from './common';

/** Wire shapes of the user's external-account bindings, shown by the third-party and identity-provider sections. */

/**
 * External account kinds: DingTalk, Feishu (Lark) and WeCom accounts, the API synchronisation and identity providers
 * (a directory such as LDAP or Windows AD is an identity provider).
 */
export const IDENTITY_PROVIDERS = ['dingtalk', 'feishu', 'wecom', 'api', 'idp'] as const;

/** One of the external account kinds. */
export const IdentityProviderSchema = Type.Union(IDENTITY_PROVIDERS.map((p) => Type.Literal(p)));
/** Kind of an external account. */
export type IdentityProvider = Static<typeof IdentityProviderSchema>;

/** One binding of the user to an external account. */
export const IdentitySchema = Type.Object(
  {
    id: Type.String(),
    provider: IdentityProviderSchema,
    credential: Type.String({
      description: 'Key of the credential (app / identity source) the account belongs to; the page indexes by it',
    }),
    open_id: Type.String({ description: "The account id at the provider, shown as 'synchronized account {openId}'" }),
    name: Type.String({ description: 'Provider name, or the identity source’s name for `idp`' }),
    created_at: Type.String(),
  },
  closed,
);
/** A binding of the user to an external account. */
export type Identity = Static<typeof IdentitySchema>;

/** Answer of `GET /individual/proxy/my/identities`. */
export const IdentitiesAnswerSchema = Type.Object({ results: Type.Array(IdentitySchema) }, closed);
/** Static type of the identities answer. */
export type IdentitiesAnswer = Static<typeof IdentitiesAnswerSchema>;
