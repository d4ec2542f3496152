import fs from 'node:fs';
import net from 'node:net';
import type tls from 'node:tls';
import { AndFilter, Client, EqualityFilter, Filter, FilterParser, InvalidCredentialsError, type Entry } from 'ldapts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../../server/context';
import type { Clock } from '../../../server/clock';
import type { DB, UsersTable } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { newId } from '../../../server/auth/random';
import {
  AccountError,
  addMembership,
  EMAIL_SHAPE_RE,
  findUserByUsername,
  newUserRow,
  USERNAME_RE,
} from '../../../server/services/accounts';
import { DIRECTORY_KINDS, type DirectoryKind } from '../../../schemas/sign-in';
import type { SignInDirectoriesTable } from './tables';
import { readSecret } from './secret-ref';
import { lockForName, underLockout, type SignInAttempt, type SignInResult } from './service';

/**
 * Sign-in through a directory (LDAP, Windows AD). The service searches the person with its own bind account (every
 * value the user typed is escaped into the filter), then binds as that person with the typed password: the
 * directory judges the password, we never see its hash. The first success creates the local account, linked by an
 * identity row to the entry's stable id (entryUUID / objectGUID), so a name reused later in the directory cannot
 * take over the account; later successes refresh name and e-mail.
 */

/** What each kind assumes when the admin does not say. */
export const DIRECTORY_DEFAULTS: Record<
  DirectoryKind,
  { name: string; userFilter: string; loginAttr: string; nameAttr: string; emailAttr: string }
> = {
  ldap: {
    name: 'LDAP',
    userFilter: '(objectClass=inetOrgPerson)',
    loginAttr: 'uid',
    nameAttr: 'cn',
    emailAttr: 'mail',
  },
  ad: {
    name: 'Windows AD',
    // People whose account is not disabled (ACCOUNTDISABLE, bit 2 of userAccountControl).
    userFilter: '(&(objectClass=user)(!(userAccountControl:1.2.840.113556.1.4.803:=2)))',
    // The first is the local account name; a person may type either (kwan or kwan@corp.example).
    loginAttr: 'sAMAccountName,userPrincipalName',
    nameAttr: 'displayName',
    emailAttr: 'mail',
  },
};

/** Connect and operation timeout when the admin gives none (ms); the answer must come within 5 s. */
export const DIRECTORY_TIMEOUT_DEFAULT_MS = 3000;
/** The range an admin may set the timeout in (ms). */
export const DIRECTORY_TIMEOUT_RANGE = [200, 4000] as const;

/** The instance's row key (a directory of one organisation has its id). */
const INSTANCE = '';

/** What the admin gives to configure a directory (`set-directory`). */
export interface DirectoryInput {
  kind: string;
  /** Organisation id it serves; absent for the whole instance. */
  orgId?: string;
  url: string;
  startTls?: boolean;
  caFile?: string;
  bindDn: string;
  /** `env:NAME` / `file:PATH` from `secretRefFrom`. */
  bindSecretRef: string;
  baseDn: string;
  userFilter?: string;
  loginAttr?: string;
  nameAttr?: string;
  emailAttr?: string;
  displayName?: string;
  timeoutMs?: number;
  enabled?: boolean;
}

const ATTR_RE = /^([A-Za-z][A-Za-z0-9-]{0,99}|[0-9]+(\.[0-9]+)+)$/;

/** The first problem of a directory configuration, naming the option, or null. */
export function directoryProblem(input: DirectoryInput): string | null {
  if (!(DIRECTORY_KINDS as readonly string[]).includes(input.kind))
    return `--kind must be one of ${DIRECTORY_KINDS.join(', ')}, got "${input.kind}"`;
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return `--url must be ldap://host[:port] or ldaps://host[:port], got "${input.url}"`;
  }
  if (!['ldap:', 'ldaps:'].includes(url.protocol) || !url.hostname)
    return `--url must be ldap://host[:port] or ldaps://host[:port], got "${input.url}"`;
  if ((url.pathname && url.pathname !== '/') || url.search || url.username || url.password)
    return '--url takes a scheme, a host and a port only (no path, query or credentials)';
  if (input.url.length > 500) return '--url is longer than 500 characters';
  if (input.startTls && url.protocol === 'ldaps:') return '--start-tls is for ldap:// URLs (ldaps:// is TLS already)';
  if (input.caFile !== undefined) {
    if (!input.caFile.startsWith('/')) return `--ca-file must be an absolute path, got "${input.caFile}"`;
    try {
      const pem = fs.readFileSync(input.caFile, 'utf8');
      if (!pem.includes('-----BEGIN CERTIFICATE-----')) return `--ca-file ${input.caFile} holds no PEM certificate`;
    } catch (e) {
      return `--ca-file: cannot read ${input.caFile} (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
    }
  }
  for (const [opt, v] of [
    ['--bind-dn', input.bindDn],
    ['--base-dn', input.baseDn],
  ] as const) {
    if (!v.trim()) return `${opt} is empty`;
    if (v.length > 500) return `${opt} is longer than 500 characters`;
    if (!/^[^=,]+=[^,]*(,\s*[^=,]+=[^,]*)*$/.test(v.replace(/\\./g, 'x')))
      return `${opt} is not a distinguished name (attr=value,attr=value…), got "${v}"`;
  }
  if (input.userFilter !== undefined) {
    if (input.userFilter.length > 1000) return '--user-filter is longer than 1000 characters';
    try {
      FilterParser.parseString(input.userFilter);
    } catch (e) {
      return `--user-filter is not an LDAP filter: ${(e as Error).message}`;
    }
    if (!input.userFilter.startsWith('(')) return '--user-filter must be enclosed in parentheses';
  }
  for (const [opt, v] of [
    ['--name-attr', input.nameAttr],
    ['--email-attr', input.emailAttr],
  ] as const) {
    if (v !== undefined && !ATTR_RE.test(v)) return `${opt} must be an attribute name, got "${v}"`;
  }
  if (input.loginAttr !== undefined) {
    const attrs = input.loginAttr.split(',').map((a) => a.trim());
    if (attrs.length > 3 || attrs.some((a) => !ATTR_RE.test(a)))
      return `--login-attr must be 1 to 3 attribute names separated by commas, got "${input.loginAttr}"`;
  }
  if (input.displayName !== undefined && (!input.displayName.trim() || input.displayName.length > 100))
    return '--display-name must be 1 to 100 characters';
  if (input.timeoutMs !== undefined) {
    const [lo, hi] = DIRECTORY_TIMEOUT_RANGE;
    if (!Number.isInteger(input.timeoutMs) || input.timeoutMs < lo || input.timeoutMs > hi)
      return `--timeout-ms must be an integer from ${lo} to ${hi}`;
  }
  return null;
}

/** Stores (replaces) the directory of a kind for the instance or one organisation; the caller checked it. */
export async function setDirectory(
  deps: { db: Kysely<DB>; clock: Clock },
  input: DirectoryInput,
): Promise<SignInDirectoriesTable> {
  const problem = directoryProblem(input);
  if (problem) throw new AccountError(problem);
  const kind = input.kind as DirectoryKind;
  const d = DIRECTORY_DEFAULTS[kind];
  const orgKey = input.orgId ?? INSTANCE;
  const existing = await deps.db
    .selectFrom('sign_in_directories')
    .select('id')
    .where('kind', '=', kind)
    .where('org_key', '=', orgKey)
    .executeTakeFirst();
  const row: SignInDirectoriesTable = {
    // The id stays across updates: identities link to it.
    id: existing?.id ?? newId(),
    kind,
    org_key: orgKey,
    name: input.displayName?.trim() ?? d.name,
    url: input.url.replace(/\/$/, ''),
    start_tls: input.startTls ? 1 : 0,
    ca_file: input.caFile ?? null,
    bind_dn: input.bindDn.trim(),
    bind_secret_ref: input.bindSecretRef,
    base_dn: input.baseDn.trim(),
    user_filter: input.userFilter ?? d.userFilter,
    attr_login: (input.loginAttr ?? d.loginAttr)
      .split(',')
      .map((a) => a.trim())
      .join(','),
    attr_name: input.nameAttr ?? d.nameAttr,
    attr_email: input.emailAttr ?? d.emailAttr,
    timeout_ms: input.timeoutMs ?? DIRECTORY_TIMEOUT_DEFAULT_MS,
    enabled: input.enabled === false ? 0 : 1,
    updated_at: deps.clock.now().getTime(),
  };
  await deps.db
    .insertInto('sign_in_directories')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['kind', 'org_key']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        url: eb.ref('excluded.url'),
        start_tls: eb.ref('excluded.start_tls'),
        ca_file: eb.ref('excluded.ca_file'),
        bind_dn: eb.ref('excluded.bind_dn'),
        bind_secret_ref: eb.ref('excluded.bind_secret_ref'),
        base_dn: eb.ref('excluded.base_dn'),
        user_filter: eb.ref('excluded.user_filter'),
        attr_login: eb.ref('excluded.attr_login'),
        attr_name: eb.ref('excluded.attr_name'),
        attr_email: eb.ref('excluded.attr_email'),
        timeout_ms: eb.ref('excluded.timeout_ms'),
        enabled: eb.ref('excluded.enabled'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  return row;
}

/** Every configured directory (instance first, then by organisation). */
export async function listDirectories(db: Kysely<DB>): Promise<SignInDirectoriesTable[]> {
  return db.selectFrom('sign_in_directories').selectAll().orderBy('org_key').orderBy('kind').execute();
}

/** The enabled directory of a kind a sign-in uses: the organisation's own, else the instance's. */
export async function findDirectory(
  db: Kysely<DB>,
  kind: DirectoryKind,
  orgId?: string,
): Promise<SignInDirectoriesTable | undefined> {
  const rows = await db
    .selectFrom('sign_in_directories')
    .selectAll()
    .where('kind', '=', kind)
    .where('enabled', '=', 1)
    .where('org_key', 'in', orgId ? [orgId, INSTANCE] : [INSTANCE])
    .execute();
  return rows.find((r) => r.org_key !== INSTANCE) ?? rows[0];
}

/** The directory could not be reached or refused our own bind account (the caller answers 503). */
export class DirectoryDownError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'DirectoryDownError';
  }
}

/** One person as the directory describes them. */
export interface DirectoryPerson {
  dn: string;
  /** The value of the first login attribute: the local account name. */
  login: string;
  name: string;
  email: string | null;
  /** entryUUID / objectGUID (hex), else the DN. */
  stableId: string;
  /** Windows AD's ACCOUNTDISABLE bit is set. */
  disabled: boolean;
}

const firstValue = (v: Entry[string] | undefined): string | undefined => {
  const x = Array.isArray(v) ? v[0] : v;
  if (x === undefined) return undefined;
  return Buffer.isBuffer(x) ? x.toString('utf8') : String(x);
};

/**
 * TLS settings of a directory: its CA when given (else the system's), and the host its certificate must name. An
 * upgraded (StartTLS) socket has no host of its own, so Node would check the certificate against "localhost".
 */
function tlsOptionsFor(dir: SignInDirectoriesTable): tls.ConnectionOptions {
  const host = new URL(dir.url).hostname.replace(/^\[|\]$/g, '');
  return {
    host,
    // SNI carries names only (RFC 6066); the certificate check still uses `host`.
    ...(net.isIP(host) ? {} : { servername: host }),
    ...(dir.ca_file ? { ca: [fs.readFileSync(dir.ca_file)] } : {}),
  };
}

/**
 * A client for one directory, with its timeouts. TLS settings go to the client only for `ldaps://`: ldapts opens a
 * TLS connection whenever it is given any, so an `ldap://` URL with StartTLS gets them at the upgrade instead.
 */
function clientFor(dir: SignInDirectoriesTable): Client {
  const secure = dir.url.startsWith('ldaps:');
  return new Client({
    url: dir.url,
    timeout: dir.timeout_ms,
    connectTimeout: dir.timeout_ms,
    ...(secure ? { tlsOptions: tlsOptionsFor(dir) } : {}),
  });
}

/** Opens a connection (StartTLS when configured) and binds as `dn`; network and TLS failures become DirectoryDownError. */
async function bindAs(dir: SignInDirectoriesTable, dn: string, password: string): Promise<Client> {
  const client = clientFor(dir);
  try {
    if (dir.start_tls) await client.startTLS(tlsOptionsFor(dir));
    await client.bind(dn, password);
    return client;
  } catch (e) {
    await client.unbind().catch(() => undefined);
    throw e;
  }
}

/** The search filter for a typed login: the configured filter AND any login attribute equal to it, all escaped. */
export function personFilter(dir: Pick<SignInDirectoriesTable, 'user_filter' | 'attr_login'>, login: string): string {
  const attrs = dir.attr_login.split(',');
  const equal = attrs.map((a) => `(${a}=${Filter.escape(login)})`);
  const anyLogin = equal.length === 1 ? equal[0] : `(|${equal.join('')})`;
  return `(&${dir.user_filter}${anyLogin})`;
}

/**
 * A session of the service's own bind account on a directory: finds people. Failing to connect or to bind with
 * the configured account is the directory being down for the user (503), logged for the admin without secrets.
 */
export class DirectoryLookup {
  private constructor(
    private readonly dir: SignInDirectoriesTable,
    private readonly client: Client,
  ) {}

  /** Connects and binds with the configured account. */
  static async open(dir: SignInDirectoriesTable): Promise<DirectoryLookup> {
    const secret = readSecret(dir.bind_secret_ref);
    if ('problem' in secret) throw new DirectoryDownError(`bind password: ${secret.problem}`);
    try {
      return new DirectoryLookup(dir, await bindAs(dir, dir.bind_dn, secret.secret));
    } catch (e) {
      const what = e instanceof InvalidCredentialsError ? 'the bind DN or password is refused' : describeLdapError(e);
      throw new DirectoryDownError(`cannot bind to ${dir.url} as ${dir.bind_dn}: ${what}`, e);
    }
  }

  /** The one person a typed login names (null for none or more than one, or an unusable entry). */
  async find(login: string): Promise<DirectoryPerson | null> {
    // A filter never matches a value with NUL or other control characters; refuse them before asking.
    if (!login || [...login].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return null;
    return this.searchOne(this.dir.base_dn, 'sub', personFilter(this.dir, login));
  }

  /**
   * The person with a stable id as `find` reports it (a linked account's identity): objectGUID in hex, entryUUID,
   * else the entry's DN; still under the configured filter, so a disabled person is not found. Null for none.
   */
  async findByStableId(stableId: string): Promise<DirectoryPerson | null> {
    let person: DirectoryPerson | null;
    if (/^[0-9a-f]{32}$/.test(stableId)) {
      // AD's binary id as bytes (a filter string would carry them as UTF-8 text).
      const filter = new AndFilter({
        filters: [
          FilterParser.parseString(this.dir.user_filter),
          new EqualityFilter({ attribute: 'objectGUID', value: Buffer.from(stableId, 'hex') }),
        ],
      });
      person = await this.searchOne(this.dir.base_dn, 'sub', filter);
    } else if (/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(stableId)) {
      person = await this.searchOne(this.dir.base_dn, 'sub', `(&${this.dir.user_filter}(entryUUID=${stableId}))`);
    } else {
      // Only entries under the configured base (where `find` found them) are looked up by DN.
      if (!stableId.endsWith(this.dir.base_dn.toLowerCase())) return null;
      person = await this.searchOne(stableId, 'base', this.dir.user_filter);
    }
    // The id the entry reports now must be the one linked (a DN reused by someone else is not them).
    return person && person.stableId.toLowerCase() === stableId.toLowerCase() ? person : null;
  }

  /** The one entry a search finds (null for none, more than one, a missing base or an unusable entry). */
  private async searchOne(
    base: string,
    scope: 'sub' | 'base',
    filter: string | Filter,
  ): Promise<DirectoryPerson | null> {
    const attrs = this.dir.attr_login.split(',');
    let entries: Entry[];
    try {
      const r = await this.client.search(base, {
        scope,
        filter,
        sizeLimit: 2,
        attributes: [
          ...attrs,
          this.dir.attr_name,
          this.dir.attr_email,
          'entryUUID',
          'objectGUID',
          'userAccountControl',
        ],
        explicitBufferAttributes: ['objectGUID'],
      });
      entries = r.searchEntries;
    } catch (e) {
      const name = (e as Error).name;
      if (name === 'SizeLimitExceededError') return null;
      // A base DN that is gone (a person removed, looked up by DN), or one that is not a DN at all.
      if (scope === 'base' && (name === 'NoSuchObjectError' || name === 'InvalidDNSyntaxError')) return null;
      throw new DirectoryDownError(`search in ${this.dir.base_dn} failed: ${describeLdapError(e)}`, e);
    }
    if (entries.length !== 1) return null;
    const entry = entries[0];
    const localLogin = firstValue(entry[attrs[0]]);
    if (!localLogin) return null;
    const guid = entry.objectGUID;
    const guidHex = Buffer.isBuffer(guid)
      ? guid.toString('hex')
      : Array.isArray(guid) && Buffer.isBuffer(guid[0])
        ? guid[0].toString('hex')
        : undefined;
    const uac = Number(firstValue(entry.userAccountControl) ?? 0);
    return {
      dn: entry.dn,
      login: localLogin,
      name: (firstValue(entry[this.dir.attr_name]) ?? '').trim(),
      email: (firstValue(entry[this.dir.attr_email]) ?? '').trim() || null,
      stableId: guidHex ?? firstValue(entry.entryUUID) ?? entry.dn.toLowerCase(),
      disabled: Number.isFinite(uac) && (uac & 2) === 2,
    };
  }

  /** Whether the directory accepts this password for the person (a fresh connection binds as them). */
  async verify(person: DirectoryPerson, password: string): Promise<boolean> {
    // An empty password would be an unauthenticated bind, which directories accept: never ask.
    if (!password) return false;
    try {
      const c = await bindAs(this.dir, person.dn, password);
      await c.unbind().catch(() => undefined);
      return true;
    } catch (e) {
      if (e instanceof InvalidCredentialsError) return false;
      // Refusals that mean "not this person now" (e.g. AD's expired or locked accounts answer 49 too; others 53).
      if ((e as Error).name === 'UnwillingToPerformError') return false;
      throw new DirectoryDownError(`bind as the person failed: ${describeLdapError(e)}`, e);
    }
  }

  /** Ends the session. */
  async close(): Promise<void> {
    await this.client.unbind().catch(() => undefined);
  }
}

/** An error's kind and code, never its data (which could quote what was sent). */
function describeLdapError(e: unknown): string {
  const err = e as { name?: string; code?: string | number; message?: string };
  if (err.code && typeof err.code === 'string') return `${err.name ?? 'Error'} ${err.code}`;
  if (err.name && err.name !== 'Error') return err.name;
  return (err.message ?? 'unknown error').slice(0, 200);
}

/** Longest display name kept from a directory (the users table's name). */
const NAME_MAX = 200;

/** The credential of a directory's identity rows. */
export const directoryCredential = (dir: Pick<SignInDirectoriesTable, 'id'>) => `directory:${dir.id}`;

/** The local account linked to a directory person, if any. */
function linkedUser(db: Kysely<DB>, dir: SignInDirectoriesTable, person: DirectoryPerson) {
  return db
    .selectFrom('identities')
    .innerJoin('users', 'users.id', 'identities.user_id')
    .selectAll('users')
    .where('identities.credential', '=', directoryCredential(dir))
    .where('identities.open_id', '=', person.stableId)
    .executeTakeFirst();
}

/**
 * The local account of a directory person: linked by their stable id, created at the first sign-in (joining the
 * directory's organisation when it has one), name and e-mail refreshed at every sign-in. A local account of the
 * same name that is not linked is not taken over (409).
 * The directory owns a directory account's e-mail: when it has one for the person, every sign-in (proven with the
 * directory password, the proof an e-mail change of the account needs too) makes it the account's address, verified,
 * over whatever the account had (a change made in the settings lasts until then; its pending activation link stops
 * matching). A sign-in that moves the address tells the owner's inbox, as a change in the settings does. When the
 * directory has none, the account keeps its own.
 */
export async function linkedAccount(
  ctx: AppContext,
  dir: SignInDirectoriesTable,
  person: DirectoryPerson,
  log: FastifyBaseLogger,
): Promise<UsersTable> {
  const credential = directoryCredential(dir);
  const name = (person.name || person.login).slice(0, NAME_MAX);
  const email = person.email && person.email.length <= 320 && EMAIL_SHAPE_RE.test(person.email) ? person.email : null;
  const now = ctx.clock.now().getTime();
  const linked = await linkedUser(ctx.db, dir, person);
  if (linked) {
    const change: Partial<UsersTable> = {};
    if (linked.name !== name) change.name = name;
    const before = linked.email;
    if (email && (before !== email || linked.email_verified !== 1)) Object.assign(change, { email, email_verified: 1 });
    if (Object.keys(change).length) {
      await ctx.db
        .updateTable('users')
        .set({ ...change, updated_at: now })
        .where('id', '=', linked.id)
        .execute();
      Object.assign(linked, change);
    }
    if (email && before?.toLowerCase() !== email.toLowerCase()) {
      await ctx.events.emit({ type: before ? 'email.changed' : 'email.bound', email, to: { userId: linked.id } });
    }
    await ctx.db
      .updateTable('identities')
      .set({ name: dir.name })
      .where('credential', '=', credential)
      .where('user_id', '=', linked.id)
      .where('name', '!=', dir.name)
      .execute();
    return linked;
  }
  if (!USERNAME_RE.test(person.login)) {
    log.warn({ directory: dir.id }, 'directory login is not a valid account name; sign-in refused');
    throw new AppError(409, 'DirectoryAccountConflict');
  }
  const taken = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('username_lower', '=', person.login.toLowerCase())
    .executeTakeFirst();
  if (taken) throw new AppError(409, 'DirectoryAccountConflict');
  const user = newUserRow(now, { username: person.login, name, email });
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user).execute();
      await trx
        .insertInto('identities')
        .values({
          id: newId(),
          user_id: user.id,
          provider: 'idp',
          credential,
          open_id: person.stableId,
          name: dir.name,
          created_at: now,
        })
        .execute();
    });
  } catch (e) {
    // A parallel first sign-in of the same person won: use the account it created.
    const again = await linkedUser(ctx.db, dir, person);
    if (again) return again;
    const sameName = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('username_lower', '=', user.username_lower)
      .executeTakeFirst();
    if (sameName) throw new AppError(409, 'DirectoryAccountConflict');
    throw e;
  }
  if (dir.org_key) {
    const org = await ctx.db.selectFrom('organizations').select('id').where('id', '=', dir.org_key).executeTakeFirst();
    if (org) {
      await addMembership(ctx, user.id, org.id);
      user.current_org_id = org.id;
    }
  }
  return user;
}

/** What a directory sign-in carries besides the credentials. */
export interface DirectorySignIn extends SignInAttempt {
  kind: DirectoryKind;
  orgId?: string;
  /** The request's logger (directory trouble is logged for the admin, never a secret). */
  log: FastifyBaseLogger;
}

/**
 * Signs a person in through a directory, under the same lockout, slider and address rules as a password sign-in.
 * The directory must answer our own bind before any slot is taken (a directory that is down locks nobody out);
 * the slot's key is the person's account name when the directory knows them (so every spelling of one person
 * counts together, and with the password form), else the typed name.
 */
export async function directorySignIn(ctx: AppContext, attempt: DirectorySignIn): Promise<SignInResult> {
  const dir = await findDirectory(ctx.db, attempt.kind, attempt.orgId);
  if (!dir) throw new AppError(400, 'DirectoryNotEnabled');
  // A name locked as typed costs the directory nothing (and answers 423 even while it is down); the lock is the
  // one this browser's attempts count in (the account of the typed name, when the browser carries its mark).
  if (await ctx.lockout.isLocked(attempt.username, await lockForName(ctx, attempt.marks, attempt.username))) {
    // The locked name's account (if one has it) hears of the attempt in its history.
    const locked = await findUserByUsername(ctx.db, attempt.username);
    if (locked) {
      await ctx.events.emit({
        type: 'sign-in.failed',
        method: attempt.kind,
        reason: 'locked',
        to: { userId: locked.id },
      });
    }
    return { kind: 'locked' };
  }
  let lookup: DirectoryLookup | undefined;
  try {
    lookup = await DirectoryLookup.open(dir);
    const person = await lookup.find(attempt.username.trim());
    const key = person ? person.login : attempt.username;
    const open = lookup;
    return await underLockout(
      ctx,
      { ...attempt, method: attempt.kind },
      key,
      async () => {
        const linked = person ? await linkedUser(ctx.db, dir, person) : undefined;
        if (!person || person.disabled || !(await open.verify(person, attempt.password))) {
          return { ok: false, user: linked };
        }
        return { ok: true, user: await linkedAccount(ctx, dir, person, attempt.log) };
      },
      // The account a device mark must name: the one linked to the directory's person.
      async () => (person ? (await linkedUser(ctx.db, dir, person))?.id : undefined),
    );
  } catch (e) {
    if (e instanceof DirectoryDownError) {
      attempt.log.warn(
        { directory: dir.id, kind: dir.kind, reason: e.message },
        'directory sign-in: directory unavailable',
      );
      throw new AppError(503, 'DirectoryUnavailable');
    }
    throw e;
  } finally {
    await lookup?.close();
  }
}

/** What `test-directory` prints: the person the directory finds for a name, without any secret. */
export async function testDirectory(
  db: Kysely<DB>,
  kind: DirectoryKind,
  username: string,
  orgId?: string,
): Promise<{ directory: SignInDirectoriesTable; person: DirectoryPerson | null }> {
  const dir = await db
    .selectFrom('sign_in_directories')
    .selectAll()
    .where('kind', '=', kind)
    .where('org_key', '=', orgId ?? INSTANCE)
    .executeTakeFirst();
  if (!dir)
    throw new AccountError(
      `no ${kind} directory is configured${orgId ? ' for this organisation' : ''} (set-directory)`,
    );
  const lookup = await DirectoryLookup.open(dir);
  try {
    return { directory: dir, person: await lookup.find(username) };
  } finally {
    await lookup.close();
  }
}
