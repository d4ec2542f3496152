import crypto from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { AppContext } from '../../../server/context';
import type { MessageCode } from '../../../server/i18n/index';
import type { CredentialRefusal } from '../../../schemas/credential-kinds';
import { addressSubject } from '../../../server/http/rate-limit';
import { passwordsAt, readDownloadState, workedFrom } from './service';

// Artifact downloads authenticated by the service (issue 42): a front door (nginx's auth_request, or a registry that
// can call out) hands over a download's Basic credentials and this judges them with the artifact password's rule
// (./service.ts passwordsAt: the new password from 10 s after the reset on, the old one until then), records the
// use, and limits guessing. A busy CI job downloading a thousand files a minute costs one statement per file (the
// account and the two failure counts, indexed) and no argon2: a password proved right is remembered in the process by a
// keyed hash of the digest in force and the password, so a reset, a revocation or the 10 s boundary (each changes the
// digest in force) ends the memory at once, on every instance.

/** Wrong passwords one client address may try in a window before its checks are refused unjudged. */
export const DOWNLOAD_FAILURES_PER_ADDRESS = 20;
/** Wrong passwords one username may take from all addresses in a window (a guesser spreading over addresses). */
export const DOWNLOAD_FAILURES_PER_USERNAME = 50;
/** The window both failure counts run over. */
export const DOWNLOAD_FAILURE_WINDOW_MS = 15 * 60_000;
/** How long a password proved right is taken without argon2 again (the row is still read for every download). */
export const DOWNLOAD_PROOF_MEMORY_MS = 5 * 60_000;
/** Proofs remembered at most (the memory starts afresh when full). */
const PROOFS_MAX = 10_000;
/** Longest Authorization header judged (a Basic pair of a 64-character username and a long password fits). */
const AUTHORIZATION_MAX = 1024;

/** What the front door reports of one download. */
export interface DownloadAttempt {
  /** The client's `Authorization` header as it came. */
  authorization: string | undefined;
  /** The path asked for (the query is dropped: it may carry a signature). */
  uri: string;
  /** The client's method (GET, HEAD, PUT…). */
  method: string;
  /** The client's address as the front door saw it. */
  address: string;
  /** The client's User-Agent. */
  client: string | null;
}

/** The judgement: let through (with the account), or refused with the answer's status and code. */
export type DownloadVerdict =
  | { ok: true; userId: string; username: string }
  | { ok: false; status: 401 | 403; code: MessageCode; retryAfterMs?: number };

/** `Basic base64(user:password)` → the pair; null when absent or malformed. */
export function parseBasic(header: string | undefined): { username: string; password: string } | null {
  if (!header || header.length > AUTHORIZATION_MAX) return null;
  const m = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const pair = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  if (colon <= 0) return null;
  return { username: pair.slice(0, colon), password: pair.slice(colon + 1) };
}

/** The use's action as the timeline shows it: `download /npm/a.tgz`, `upload /maven/…`, else the method. */
export function downloadAction(method: string, uri: string): string {
  const path = uri.split('?')[0] || '/';
  const m = method.toUpperCase();
  const verb = m === 'GET' || m === 'HEAD' ? 'download' : m === 'PUT' || m === 'POST' ? 'upload' : m.toLowerCase();
  return `${verb} ${path}`;
}

/** The address the front door reported when it is one; else the caller's own (a misconfigured proxy). */
export function reportedAddress(reported: string | undefined, fallback: string): string {
  const a = reported?.trim();
  return a && ipaddr.isValid(a) ? a : fallback;
}

/** Judges downloads for one service instance (it holds the instance's memory of proved passwords). */
export class DownloadChecker {
  /** Per-process key of the proof memory: the memory never leaves the process, so a random key is enough. */
  private readonly key = crypto.randomBytes(32);
  /** HMAC(digest in force, password) → until when it counts as proved. */
  private readonly proved = new Map<string, number>();
  /** The argon2 checks under way, by the same key. */
  private readonly judging = new Map<string, Promise<boolean>>();

  constructor(private readonly ctx: AppContext) {}

  /** Judges one download, records it (ok or refused, for a known username) and counts a wrong password. */
  async check(a: DownloadAttempt): Promise<DownloadVerdict> {
    const ctx = this.ctx;
    const pair = parseBasic(a.authorization);
    // No credentials: what a client sends before it is asked (curl without -u, a browser); nothing to count.
    if (!pair) return { ok: false, status: 401, code: 'PackagesCredentialsInvalid' };
    const now = ctx.clock.now().getTime();
    const {
      account: row,
      fromAddress,
      forName,
    } = await readDownloadState(ctx, pair.username, this.keys(pair.username, a.address));
    // Limits come before any judging, the remembered proofs included (else a limited guesser would still learn
    // when a guess is the remembered password). The username's count does not stop an address the password worked
    // from before (a guesser elsewhere must not stop the owner's CI); the address's own count still does.
    const limited =
      fromAddress >= DOWNLOAD_FAILURES_PER_ADDRESS ||
      (forName >= DOWNLOAD_FAILURES_PER_USERNAME && !(row && (await workedFrom(ctx, row.user_id, a.address))));
    // peek does not tell when the window ends; a whole window is an upper bound clients may retry after.
    if (limited)
      return { ok: false, status: 403, code: 'PackagesTooManyFailures', retryAfterMs: DOWNLOAD_FAILURE_WINDOW_MS };
    const { inForce, pending } = row ? passwordsAt(row, now) : { inForce: null, pending: null };
    const proof = inForce ? this.mac(inForce, pair.password) : null;
    let right = proof !== null && (this.proved.get(proof) ?? 0) > now;

    const use = (outcome: 'ok' | 'refused', reason?: CredentialRefusal) =>
      row
        ? ctx.credentialUses.record({
            kind: 'packages-password',
            credentialId: row.user_id,
            userId: row.user_id,
            address: a.address,
            client: a.client,
            action: downloadAction(a.method, a.uri),
            outcome,
            reason,
            name: row.username,
          })
        : Promise.resolve();

    if (!right)
      right =
        inForce && proof
          ? await this.prove(proof, inForce, pair.password, now)
          : await ctx.hasher.dummyVerify(pair.password);
    if (!right) {
      // The new password before its time is the owner's, not a guess: said so, and not counted as a failure.
      if (row && pending && (await ctx.hasher.verify(pending, pair.password))) {
        await use('refused', 'not-yet');
        return { ok: false, status: 401, code: 'PackagesPasswordNotYet' };
      }
      await this.countFailure(pair.username, a.address);
      await use('refused', 'wrong-password');
      return { ok: false, status: 401, code: 'PackagesCredentialsInvalid' };
    }
    // Past the password (only its holder learns these): a held account and one that must change its password act
    // through nothing else, as with tokens.
    if (row!.held_at != null) {
      await use('refused', 'revoked');
      return { ok: false, status: 401, code: 'AccountHeld' };
    }
    if (Number(row!.must_change_password) === 1) {
      await use('refused', 'password-change');
      return { ok: false, status: 403, code: 'PasswordChangeRequired' };
    }
    await use('ok');
    return { ok: true, userId: row!.user_id, username: row!.username };
  }

  /**
   * argon2 once for a pair however many downloads ask at the same moment (a CI job starting 16 in parallel), and
   * remembered when right.
   */
  private prove(proof: string, digest: string, password: string, now: number): Promise<boolean> {
    let judging = this.judging.get(proof);
    if (!judging) {
      judging = this.ctx.hasher.verify(digest, password).then((right) => {
        if (right) {
          if (this.proved.size >= PROOFS_MAX) this.proved.clear();
          this.proved.set(proof, now + DOWNLOAD_PROOF_MEMORY_MS);
        }
        return right;
      });
      this.judging.set(proof, judging);
      void judging.finally(() => this.judging.delete(proof)).catch(() => {});
    }
    return judging;
  }

  private mac(digest: string, password: string): string {
    return crypto.createHmac('sha256', this.key).update(digest).update('\0').update(password).digest('base64url');
  }

  private keys(username: string, address: string) {
    return {
      address: `packages-download:ip:${addressSubject(this.ctx, address)}`,
      username: `packages-download:user:${username.toLowerCase()}`,
    };
  }

  private async countFailure(username: string, address: string): Promise<void> {
    const keys = this.keys(username, address);
    const hit = (key: string) => this.ctx.rateLimits.hit(key, Number.MAX_SAFE_INTEGER, DOWNLOAD_FAILURE_WINDOW_MS);
    await Promise.all([hit(keys.address), hit(keys.username)]);
  }
}
