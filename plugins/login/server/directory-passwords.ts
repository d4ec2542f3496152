import type { AppContext } from '../../../server/context';
import type {
  DirectoryPasswords,
  DirectoryPasswordVerdict,
  DirectorySource,
  DirectoryTroubleLog,
} from '../../../server/auth/directory-passwords';
import type { SignInDirectoriesTable } from './tables';
import { directoryCredential, DirectoryDownError, DirectoryLookup } from './directory';

/** The identity credential prefix of directory links (`directoryCredential`). */
const DIRECTORY_PREFIX = directoryCredential({ id: '' });

/**
 * The enabled directory an account signs in through and its person's stable id there: its directory identity
 * (made by its first directory sign-in), the earliest one when it has several. Undefined for none.
 */
async function linkOf(
  ctx: AppContext,
  userId: string,
): Promise<{ dir: SignInDirectoriesTable; stableId: string } | undefined> {
  const links = await ctx.db
    .selectFrom('identities')
    .select(['credential', 'open_id'])
    .where('user_id', '=', userId)
    .where('credential', 'like', `${DIRECTORY_PREFIX}%`)
    .orderBy('created_at')
    .execute();
  if (!links.length) return undefined;
  const dirs = await ctx.db
    .selectFrom('sign_in_directories')
    .selectAll()
    .where('enabled', '=', 1)
    .where(
      'id',
      'in',
      links.map((l) => l.credential.slice(DIRECTORY_PREFIX.length)),
    )
    .execute();
  for (const link of links) {
    const dir = dirs.find((d) => directoryCredential(d) === link.credential);
    if (dir) return { dir, stableId: link.open_id };
  }
  return undefined;
}

/**
 * `ctx.directoryPasswords`: a directory account's password, judged by its directory as at sign-in. The service's
 * own bind finds the person by the stable id the account is linked to (a renamed person is still found, a name
 * reused by someone else is not them), then a fresh connection binds as them with the password. A disabled or
 * removed person is `wrong`; a directory that is down, or refuses our own bind, is `unavailable`.
 */
export function directoryPasswords(ctx: AppContext): DirectoryPasswords {
  return {
    async sourceOf(userId: string): Promise<DirectorySource | null> {
      const link = await linkOf(ctx, userId);
      return link ? { name: link.dir.name } : null;
    },
    async verify(userId: string, password: string, log?: DirectoryTroubleLog): Promise<DirectoryPasswordVerdict> {
      const link = await linkOf(ctx, userId);
      if (!link) return 'not-directory';
      let lookup: DirectoryLookup | undefined;
      try {
        lookup = await DirectoryLookup.open(link.dir);
        const person = await lookup.findByStableId(link.stableId);
        if (!person || person.disabled) return 'wrong';
        return (await lookup.verify(person, password)) ? 'ok' : 'wrong';
      } catch (e) {
        if (!(e instanceof DirectoryDownError)) throw e;
        log?.warn(
          { directory: link.dir.id, kind: link.dir.kind, reason: e.message },
          'directory password check: directory unavailable',
        );
        return 'unavailable';
      } finally {
        await lookup?.close();
      }
    },
  };
}
