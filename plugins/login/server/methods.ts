import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../server/context';
import { DIRECTORY_KINDS, OAUTH_PROVIDERS, orgIdFrom, type SignInMethods } from '../../../schemas/sign-in';

/** The organisation a login page was opened for (`?org=`), when it looks like an id. */
function pageOrg(req: FastifyRequest): string | undefined {
  const org = (req.query as Record<string, unknown> | undefined)?.org;
  return typeof org === 'string' ? orgIdFrom(org) : undefined;
}

/**
 * What the login page offers besides account and password: the enabled directories of the instance (and of the
 * organisation in `?org=`) and the enabled third-party providers, in a fixed order.
 */
export function signInMethods(ctx: AppContext) {
  return async (req: FastifyRequest): Promise<SignInMethods> => {
    const org = pageOrg(req);
    const [dirs, providers] = await Promise.all([
      ctx.db
        .selectFrom('sign_in_directories')
        .select('kind')
        .where('enabled', '=', 1)
        .where('org_key', 'in', org ? ['', org] : [''])
        .execute(),
      ctx.db.selectFrom('oauth_providers').select('provider').where('enabled', '=', 1).execute(),
    ]);
    const kinds = new Set(dirs.map((d) => d.kind));
    const enabled = new Set(providers.map((p) => p.provider));
    return {
      directories: DIRECTORY_KINDS.filter((k) => kinds.has(k)),
      oauth: OAUTH_PROVIDERS.filter((p) => enabled.has(p)),
    };
  };
}
