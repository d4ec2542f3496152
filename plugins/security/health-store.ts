import type { RequestError } from '../../src/core/request';
import { failureOf, type Failure } from '../../src/core/stores/failure';
import { annotate, ResourceStore } from '../../src/core/stores/resource';
import type { securityApi } from './api';
import type { CredentialHealth, CredentialHealthItem, HealthMark, RevokeStaleResult } from './contract';

/** The API of the security section, as the stores hold it. */
type SecurityApi = ReturnType<typeof securityApi>;

/** The kinds in the order the section lists them. */
export const HEALTH_KINDS = ['token', 'ssh-key', 'packages-password', 'session'] as const;
/** A kind of item the section lists. */
export type HealthKind = (typeof HEALTH_KINDS)[number];

/** The marks in the order the section counts and tags them (the worst first). */
export const HEALTH_MARKS: readonly HealthMark[] = ['expired', 'expiring', 'unused-90', 'unused-30', 'never-used'];

/** Outcome of "revoke all stale": what went and how many shown ones stayed, when it went through. */
export type RevokeStaleOutcome = { ok: true; result: RevokeStaleResult } | { ok: false; failure?: Failure };

const NO_HEALTH: CredentialHealth = { credentials: [], current_session: null, checked_at: '' };

/**
 * The account's credential health: every token, SSH key, the artifact password and session with its marks, and
 * "revoke all stale" (the core client asks for a fresh proof first).
 */
export class CredentialHealthStore extends ResourceStore<CredentialHealth> {
  /** "Revoke all stale" is in flight. */
  revoking = false;

  constructor(
    private readonly api: SecurityApi,
    /** Called after a revocation, so the sessions and the history show it. */
    private readonly onRevoked: () => void = () => {},
  ) {
    super({ empty: NO_HEALTH, loading: true });
    annotate<CredentialHealthStore>(this, {
      observable: ['revoking'],
      action: ['revokeStale'],
      computed: ['items', 'stale', 'counts'],
    });
  }

  /** Every item, by kind (tokens, SSH keys, the artifact password, sessions) as the service ordered each kind. */
  get items(): CredentialHealthItem[] {
    return [...this.data.credentials].sort((a, b) => HEALTH_KINDS.indexOf(a.kind) - HEALTH_KINDS.indexOf(b.kind));
  }

  /** What "revoke all stale" would take (never the session making the calls: the service says so). */
  get stale(): CredentialHealthItem[] {
    return this.items.filter((c) => c.stale);
  }

  /** How many items carry each mark. */
  get counts(): Record<HealthMark, number> {
    const counts = Object.fromEntries(HEALTH_MARKS.map((m) => [m, 0])) as Record<HealthMark, number>;
    for (const c of this.data.credentials) for (const m of c.marks) counts[m] += 1;
    return counts;
  }

  /** The account's credentials as the service lists them. */
  protected fetch() {
    return this.api.credentialHealth();
  }

  /**
   * Revokes the stale items the section shows (the confirmation named them); the service takes only those still stale,
   * so one used meanwhile stays. Then the list, the sessions and the history are read again.
   */
  async revokeStale(): Promise<RevokeStaleOutcome> {
    let result: RevokeStaleResult | undefined;
    const items = this.stale.map(({ kind, id }) => ({ kind, id }));
    const r = await this.saveWith(this.api.revokeStale({ items }), {
      busy: (on) => (this.revoking = on),
      failure: (error: RequestError) => failureOf(error, {}, 'security.health.error.revokeFailed'),
      apply: (answer) => (result = answer),
    });
    if (!r.ok || !result) return r.ok ? { ok: false } : r;
    this.onRevoked();
    await this.load();
    return { ok: true, result };
  }
}
