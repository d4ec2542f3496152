import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB, IdentitiesTable } from '../db/schema';
import { newId } from '../auth/random';
import { AccountError, findUserByUsername } from './accounts';
import { IDENTITY_PROVIDERS, type Identity, type IdentityProvider } from '../../schemas/identities';

// Third-party and identity-provider bindings: a core service, because two web sections (third-party,
// identity-provider) read them and the admin CLI writes them.

/** Display names of the fixed providers (an identity provider is named by the admin). */
const PROVIDER_NAMES: Record<Exclude<IdentityProvider, 'idp'>, string> = {
  dingtalk: 'DingTalk',
  feishu: 'Feishu',
  wecom: 'WeCom',
  api: 'API',
};

/** The user's bindings, oldest first, as `GET /individual/proxy/my/identities` answers them. */
export async function listIdentities(deps: { db: Kysely<DB> }, userId: string): Promise<Identity[]> {
  const rows = await deps.db
    .selectFrom('identities')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    provider: r.provider as IdentityProvider,
    credential: r.credential,
    open_id: r.open_id,
    name: r.name,
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/** What the admin CLI gives to bind an account. */
export interface BindIdentityInput {
  username: string;
  provider: IdentityProvider;
  /** Account id at the provider; for an identity provider, defaults to the username. */
  openId?: string;
  /** Identity source name (required for `idp`). */
  name?: string;
}

/**
 * Binds (or re-binds) a user to an external account. The credential of DingTalk, Feishu and API is the
 * provider itself; each identity source is its own credential (`idp:<name>`). A user has at most one
 * account per credential (binding again replaces it); an external account belongs to one user.
 */
export async function bindIdentity(
  deps: { db: Kysely<DB>; clock: Clock },
  input: BindIdentityInput,
): Promise<IdentitiesTable> {
  if (!IDENTITY_PROVIDERS.includes(input.provider))
    throw new AccountError(`provider must be one of ${IDENTITY_PROVIDERS.join(', ')}`);
  const user = await findUserByUsername(deps.db, input.username);
  if (!user) throw new AccountError(`user "${input.username}" does not exist`);
  const openId = (input.openId ?? (input.provider === 'idp' ? user.username : '')).trim();
  if (!openId || openId.length > 200) throw new AccountError('open id must be 1 to 200 characters');
  let name: string;
  let credential: string;
  if (input.provider === 'idp') {
    name = (input.name ?? '').trim();
    if (!name || name.length > 190) throw new AccountError('identity source name must be 1 to 190 characters');
    credential = `idp:${name.toLowerCase()}`;
  } else {
    name = PROVIDER_NAMES[input.provider];
    credential = input.provider;
  }
  const taken = await deps.db
    .selectFrom('identities')
    .select('user_id')
    .where('credential', '=', credential)
    .where('open_id', '=', openId)
    .executeTakeFirst();
  if (taken && taken.user_id !== user.id)
    throw new AccountError(`${name} account "${openId}" is already bound to another user`);
  const row: IdentitiesTable = {
    id: newId(),
    user_id: user.id,
    provider: input.provider,
    credential,
    open_id: openId,
    name,
    created_at: deps.clock.now().getTime(),
  };
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('identities').where('user_id', '=', user.id).where('credential', '=', credential).execute();
    await trx.insertInto('identities').values(row).execute();
  });
  return row;
}

/** Removes a user's binding to one provider (all identity sources for `idp` unless a name is given). */
export async function unbindIdentity(
  deps: { db: Kysely<DB> },
  username: string,
  provider: IdentityProvider,
  name?: string,
): Promise<number> {
  const user = await findUserByUsername(deps.db, username);
  if (!user) throw new AccountError(`user "${username}" does not exist`);
  let q = deps.db.deleteFrom('identities').where('user_id', '=', user.id).where('provider', '=', provider);
  if (provider === 'idp' && name) q = q.where('credential', '=', `idp:${name.trim().toLowerCase()}`);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}
