import { Type, type Static } from '@sinclair/typebox';
import { closed } from './common';
import { DIRECTORY_KINDS, OAUTH_PROVIDERS } from './sign-in-paths';

export * from './sign-in-paths';

/**
 * Sign-in methods besides account and password, as the page config tells the login page (a core shape: the page
 * config is core; the login slice owns the rules and re-exports these from its contract).
 */

/** What the login page may offer besides account and password (page config `signIn`). */
export const SignInMethodsSchema = Type.Object(
  {
    directories: Type.Array(Type.Union(DIRECTORY_KINDS.map((k) => Type.Literal(k))), {
      description: 'Directory tabs to show (enabled directories of the instance, or of the organisation in `?org=`)',
    }),
    oauth: Type.Array(Type.Union(OAUTH_PROVIDERS.map((p) => Type.Literal(p))), {
      description: 'Third-party providers enabled on this instance',
    }),
  },
  closed,
);
/** Sign-in methods the login page offers. */
export type SignInMethods = Static<typeof SignInMethodsSchema>;
