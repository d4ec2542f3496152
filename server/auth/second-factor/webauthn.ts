import type { Kysely } from 'kysely';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Clock } from '../../clock';
import type { DB, WebauthnCredentialsTable } from '../../db/schema';
import type { WebauthnUserVerification } from '../../config';
import { newId, sha256 } from '../random';
import {
  FACTOR_NAME_MAX,
  WEBAUTHN_CHALLENGE_SECONDS,
  WEBAUTHN_CREDENTIALS_MAX,
} from '../../../schemas/second-factor-limits';
import type {
  AuthenticationOptions,
  AuthenticationResponse,
  RegistrationOptions,
  RegistrationResponse,
} from '../../../schemas/second-factor';
import type { FactorUser, PasskeyInfo } from './types';

/** Where passkeys are bound: the relying-party id (a host name) and the one origin assertions must come from. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

/**
 * The relying party of this service: PUBLIC_URL's host and origin; without PUBLIC_URL (development, tests)
 * `localhost` and `http://localhost:<PORT>`. A passkey made for one rp id never answers another.
 */
export function relyingParty(config: { publicUrl?: string; port: number }): RelyingParty {
  if (config.publicUrl) {
    const u = new URL(config.publicUrl);
    return { rpID: u.hostname, origin: u.origin };
  }
  return { rpID: 'localhost', origin: `http://localhost:${config.port}` };
}

/** What the WebAuthn rules need. */
export interface WebauthnDeps {
  db: Kysely<DB>;
  clock: Clock;
  rp: RelyingParty;
  /** The name an authenticator shows for this service (the edition's product name). */
  rpName: string;
  userVerification: WebauthnUserVerification;
}

/** Unanswered challenges an account keeps per purpose (the newest). */
const CHALLENGES_KEPT_PER_ACCOUNT = 10;

/** What a challenge was issued for. */
type Purpose = 'register' | 'assert';

/** The bytes of a WebAuthn user handle: the account id (random, not personal), so an assertion names its account. */
export function userHandleOf(userId: string): string {
  return Buffer.from(userId, 'utf8').toString('base64url');
}

/** Keeps a challenge (its SHA-256 only) single use for an account, or anyone (null), until it expires. */
async function keepChallenge(deps: WebauthnDeps, challenge: string, userId: string | null, purpose: Purpose) {
  const hash = sha256(challenge);
  await deps.db
    .insertInto('webauthn_challenges')
    .values({
      challenge_hash: hash,
      user_id: userId,
      purpose,
      expires_at: deps.clock.now().getTime() + WEBAUTHN_CHALLENGE_SECONDS * 1000,
    })
    .execute();
  if (userId === null) return;
  // An account keeps its latest few challenges per purpose (tabs, retries); asking for more drops the oldest, so
  // the table does not grow with a session asking in a loop. Anyone's (passkey sign-in) are limited by the route.
  await deps.db
    .deleteFrom('webauthn_challenges')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('challenge_hash', '!=', hash)
    .where('challenge_hash', 'not in', (eb) =>
      eb
        .selectFrom('webauthn_challenges as kept')
        .select('kept.challenge_hash')
        .where('kept.user_id', '=', userId)
        .where('kept.purpose', '=', purpose)
        .where('kept.challenge_hash', '!=', hash)
        .orderBy('kept.expires_at', 'desc')
        .limit(CHALLENGES_KEPT_PER_ACCOUNT - 1),
    )
    .execute();
}

/**
 * Spends a challenge: one DELETE of the row issued for this account (or for anyone when null) and purpose, unexpired.
 * True for the one request that removed it; a second answer to it, or one for another account, gets false.
 */
async function takeChallenge(
  deps: WebauthnDeps,
  challenge: string,
  userId: string | null,
  purpose: Purpose,
): Promise<boolean> {
  const r = await deps.db
    .deleteFrom('webauthn_challenges')
    .where('challenge_hash', '=', sha256(challenge))
    .where('purpose', '=', purpose)
    .where('user_id', userId === null ? 'is' : '=', userId)
    .where('expires_at', '>', deps.clock.now().getTime())
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** The challenge the browser signed, read from its client data; null when the data is not client data. */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const c = (data as { challenge?: unknown } | null)?.challenge;
    return typeof c === 'string' && c.length > 0 && c.length <= 512 ? c : null;
  } catch {
    return null;
  }
}

/** Removes challenges past their time (housekeeping; expired ones are refused anyway). */
export async function purgeChallenges(deps: Pick<WebauthnDeps, 'db' | 'clock'>): Promise<void> {
  await deps.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', deps.clock.now().getTime()).execute();
}

/** A stored credential as its owner sees it. */
export function passkeyInfo(
  row: Pick<WebauthnCredentialsTable, 'id' | 'name' | 'created_at' | 'last_used_at' | 'discoverable'>,
): PasskeyInfo {
  return {
    id: row.id,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at == null ? null : Number(row.last_used_at),
    discoverable: Number(row.discoverable) === 1,
  };
}

const infoColumns = ['id', 'name', 'created_at', 'last_used_at', 'discoverable'] as const;

/** The account's passkeys, oldest first. */
export async function passkeysOf(deps: Pick<WebauthnDeps, 'db'>, userId: string): Promise<PasskeyInfo[]> {
  const rows = await deps.db
    .selectFrom('webauthn_credentials')
    .select(infoColumns)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(passkeyInfo);
}

/** The transports a row keeps, as WebAuthn descriptors carry them. */
function transportsOf(json: string | null): string[] | undefined {
  if (!json) return undefined;
  try {
    const t = JSON.parse(json) as unknown;
    return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : undefined;
  } catch {
    return undefined;
  }
}

/** Options to register a passkey: discoverable preferred (it can then sign in alone), the account's own excluded. */
export async function registrationOptions(deps: WebauthnDeps, user: FactorUser): Promise<RegistrationOptions> {
  const existing = await deps.db
    .selectFrom('webauthn_credentials')
    .select(['credential_id', 'transports'])
    .where('user_id', '=', user.id)
    .execute();
  const o = await generateRegistrationOptions({
    rpName: deps.rpName,
    rpID: deps.rp.rpID,
    userName: user.username,
    userID: Buffer.from(user.id, 'utf8'),
    userDisplayName: user.name || user.username,
    timeout: WEBAUTHN_CHALLENGE_SECONDS * 1000,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: transportsOf(c.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: deps.userVerification },
  });
  await keepChallenge(deps, o.challenge, user.id, 'register');
  return {
    challenge: o.challenge,
    rp: { name: o.rp.name, ...(o.rp.id ? { id: o.rp.id } : {}) },
    user: { id: o.user.id, name: o.user.name, displayName: o.user.displayName },
    pubKeyCredParams: o.pubKeyCredParams.map((p) => ({ alg: p.alg, type: 'public-key' as const })),
    timeout: o.timeout,
    excludeCredentials: (o.excludeCredentials ?? []).map((c) => ({
      id: c.id,
      type: 'public-key' as const,
      ...(c.transports ? { transports: [...c.transports] } : {}),
    })),
    authenticatorSelection: {
      residentKey: o.authenticatorSelection?.residentKey,
      requireResidentKey: o.authenticatorSelection?.requireResidentKey,
      userVerification: o.authenticatorSelection?.userVerification,
    },
    attestation: o.attestation,
    extensions: { credProps: true },
  };
}

/**
 * Verifies a new credential (the account's own unspent challenge, origin, rp id, user presence, attestation) and keeps
 * it under `name`. Null when it does not verify, the account has WEBAUTHN_CREDENTIALS_MAX already, or the credential
 * is registered already (to this account or another).
 */
export async function register(
  deps: WebauthnDeps,
  userId: string,
  response: RegistrationResponse,
  name: string,
): Promise<PasskeyInfo | null> {
  const challenge = signedChallenge(response.response.clientDataJSON);
  if (!challenge || !(await takeChallenge(deps, challenge, userId, 'register'))) return null;
  const count = await deps.db
    .selectFrom('webauthn_credentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= WEBAUTHN_CREDENTIALS_MAX) return null;
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      // The contract's schema is the library's JSON shape, with transports as plain strings.
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: deps.rp.origin,
      expectedRPID: deps.rp.rpID,
      requireUserPresence: true,
      requireUserVerification: deps.userVerification === 'required',
    });
  } catch {
    return null;
  }
  if (!verified.verified) return null;
  const { credential } = verified.registrationInfo;
  const rk = (response.clientExtensionResults as { credProps?: { rk?: unknown } }).credProps?.rk;
  const now = deps.clock.now().getTime();
  const row = {
    id: newId(),
    user_id: userId,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports?.length ? JSON.stringify(credential.transports.slice(0, 8)) : null,
    discoverable: rk === true ? 1 : 0,
    name: name.slice(0, FACTOR_NAME_MAX),
    created_at: now,
    last_used_at: null,
  };
  const kept = await deps.db
    .insertInto('webauthn_credentials')
    .values(row)
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return kept ? passkeyInfo(row) : null;
}

/** Renames one of the account's passkeys; null when the id is not the account's. */
export async function renamePasskey(
  deps: Pick<WebauthnDeps, 'db'>,
  userId: string,
  id: string,
  name: string,
): Promise<PasskeyInfo | null> {
  const row = await deps.db
    .updateTable('webauthn_credentials')
    .set({ name: name.slice(0, FACTOR_NAME_MAX) })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(infoColumns)
    .executeTakeFirst();
  return row ? passkeyInfo(row) : null;
}

/** Removes one of the account's passkeys; null when the id is not the account's. */
export async function removePasskey(
  deps: Pick<WebauthnDeps, 'db'>,
  userId: string,
  id: string,
): Promise<PasskeyInfo | null> {
  const row = await deps.db
    .deleteFrom('webauthn_credentials')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(infoColumns)
    .executeTakeFirst();
  return row ? passkeyInfo(row) : null;
}

/**
 * Options to assert with, the challenge kept single use for the account (its passkeys allowed) or, with null, for
 * anyone (a passkey sign-in: no credential named, the authenticator offers its discoverable ones).
 */
export async function assertionOptions(deps: WebauthnDeps, userId: string | null): Promise<AuthenticationOptions> {
  const creds = userId
    ? await deps.db
        .selectFrom('webauthn_credentials')
        .select(['credential_id', 'transports'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute()
    : [];
  const o = await generateAuthenticationOptions({
    rpID: deps.rp.rpID,
    allowCredentials: creds.map((c) => ({ id: c.credential_id, transports: transportsOf(c.transports) })),
    timeout: WEBAUTHN_CHALLENGE_SECONDS * 1000,
    // A passkey sign-in stands for both factors: it asks the authenticator to verify its user (see verifyPasswordless).
    userVerification: userId === null && deps.userVerification === 'preferred' ? 'required' : deps.userVerification,
  });
  await keepChallenge(deps, o.challenge, userId, 'assert');
  return {
    challenge: o.challenge,
    timeout: o.timeout,
    rpId: o.rpId,
    allowCredentials: (o.allowCredentials ?? []).map((c) => ({
      id: c.id,
      type: 'public-key' as const,
      ...(c.transports ? { transports: [...c.transports] } : {}),
    })),
    userVerification: o.userVerification,
  };
}

/**
 * Judges an assertion: its challenge (issued for `userId`, or for anyone when null, unspent and unexpired) is spent
 * first whatever follows; then the credential must be `userId`'s (any account's for a passkey sign-in, whose user
 * handle must then name its owner), `id` must equal `rawId`, and origin, rp id, user presence (and verification when
 * `requireUv`), signature and counter must verify. The counter moves forward in one conditional UPDATE, so a replayed
 * or parallel copy of an assertion fails. Answers the credential's owner, or null.
 */
async function judgeAssertion(
  deps: WebauthnDeps,
  userId: string | null,
  response: AuthenticationResponse,
  requireUv: boolean,
): Promise<string | null> {
  const challenge = signedChallenge(response.response.clientDataJSON);
  if (!challenge || !(await takeChallenge(deps, challenge, userId, 'assert'))) return null;
  if (response.id !== response.rawId || response.type !== 'public-key') return null;
  let q = deps.db
    .selectFrom('webauthn_credentials')
    .select(['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('credential_id', '=', response.id);
  if (userId !== null) q = q.where('user_id', '=', userId);
  const cred = await q.executeTakeFirst();
  if (!cred) return null;
  const handle = response.response.userHandle;
  // A passkey sign-in names no account beforehand: the authenticator's user handle must name the credential's owner.
  if (
    userId === null
      ? handle !== userHandleOf(cred.user_id)
      : handle !== undefined && handle !== userHandleOf(cred.user_id)
  )
    return null;
  const stored = Number(cred.counter);
  let newCounter: number;
  try {
    const v = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: deps.rp.origin,
      expectedRPID: deps.rp.rpID,
      credential: {
        id: cred.credential_id,
        publicKey: new Uint8Array(Buffer.from(cred.public_key, 'base64url')),
        counter: stored,
        transports: transportsOf(cred.transports),
      },
      requireUserVerification: requireUv,
    });
    if (!v.verified) return null;
    newCounter = v.authenticationInfo.newCounter;
  } catch {
    return null;
  }
  const now = deps.clock.now().getTime();
  // Counters must move forward; an authenticator that keeps none says 0 every time (WebAuthn §6.1.1), allowed.
  const r = await deps.db
    .updateTable('webauthn_credentials')
    .set({ counter: newCounter, last_used_at: now })
    .where('id', '=', cred.id)
    .where((eb) => (newCounter === 0 ? eb('counter', '=', 0) : eb('counter', '<', newCounter)))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? cred.user_id : null;
}

/** A second factor: true when the assertion is the account's (see `judgeAssertion`). */
export async function verifyAssertion(
  deps: WebauthnDeps,
  userId: string,
  response: AuthenticationResponse,
): Promise<boolean> {
  return (await judgeAssertion(deps, userId, response, deps.userVerification === 'required')) === userId;
}

/**
 * A passkey sign-in (no password): the account whose credential made the assertion, or null. It stands for both
 * factors, so the authenticator must have verified its user unless WEBAUTHN_USER_VERIFICATION is `discouraged`.
 */
export async function verifyPasswordless(deps: WebauthnDeps, response: AuthenticationResponse): Promise<string | null> {
  return judgeAssertion(deps, null, response, deps.userVerification !== 'discouraged');
}
