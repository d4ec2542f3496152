import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';
import type { EventBus } from '../events';
import { newId } from './random';
import {
  CREDENTIAL_TIMELINE_PAGE,
  CREDENTIAL_USE_RETENTION_DAYS,
  CREDENTIAL_USE_THROTTLE_MS,
  type CredentialKind,
  type CredentialRefusal,
  type CredentialUseOutcome,
} from '../../schemas/credential-kinds';

// Credentials in use (issue 42), a core service: every slice whose credential a client outside the browser presents
// (tokens on the open API, SSH keys through the git gate, the artifact password through the download check) records
// each use here, and the lists, timelines, health section and history read it back. Throttled so a busy CI job
// writes at most one row per credential, address and outcome a minute: a unique key on the minute makes it exact
// across instances, and a small in-process memo spares the database the repeats.

/** One use as its checker saw it. */
export interface CredentialUseInput {
  kind: CredentialKind;
  /** Token id, SSH key id, or the account id for the artifact password (one per account). */
  credentialId: string;
  /** The credential's owner (a refused use of an unknown credential is not recorded: nobody owns it). */
  userId: string;
  /** The client's address: the request's for the open API, the one the gate or proxy reports for git and downloads. */
  address: string;
  /** User agent, or what the gate says of the git client; null when unknown. Cut to 200 characters. */
  client: string | null;
  /** What was done, e.g. `GET /oapi/v1/platform/user`, `git-receive-pack org/repo`; cut to 300 characters. */
  action: string;
  outcome: CredentialUseOutcome;
  /** Why it was refused; absent when let through. */
  reason?: CredentialRefusal;
  /** The credential's name as its owner knows it, for the history's refused-use line (not stored with the use). */
  name?: string | null;
}

/** A recorded use. */
export interface CredentialUse {
  id: string;
  kind: CredentialKind;
  credentialId: string;
  userId: string;
  at: number;
  address: string;
  client: string | null;
  action: string;
  outcome: CredentialUseOutcome;
  reason: CredentialRefusal | null;
}

/** A credential's last successful use. */
export interface LastCredentialUse {
  at: number;
  address: string;
  client: string | null;
}

/** The recording service (`ctx.credentialUses`). */
export interface CredentialUses {
  /**
   * Records a use, at most one row per credential, address, outcome and minute; a refused use that makes a new row
   * is also told to the account's history (`credential.refused`, with the client as origin). Never throws: a lost
   * record is logged, the use itself goes on.
   */
  record(use: CredentialUseInput): Promise<void>;
  /** The last successful use of each of `ids` (of one kind), for the lists. */
  lastUses(kind: CredentialKind, ids: readonly string[]): Promise<Map<string, LastCredentialUse>>;
  /**
   * Up to `limit` (a page) of a credential's uses before `before`, newest first; only the owner's rows (the owner
   * check is `userId`).
   */
  timeline(
    userId: string,
    kind: CredentialKind,
    credentialId: string,
    before?: { at: number; id: string },
    limit?: number,
  ): Promise<CredentialUse[]>;
  /** Forgets the uses of credentials that are gone (a deleted token or key). */
  forget(kind: CredentialKind, credentialIds: readonly string[]): Promise<void>;
  /** Deletes rows older than the retention (90 days). */
  purge(): Promise<void>;
}

const MEMO_MAX = 10_000;
const cut = (s: string | null, n: number) => (s == null ? null : s.length > n ? s.slice(0, n) : s);

/** The database-backed recorder. */
export class CredentialUseStore implements CredentialUses {
  /** `kind|id|address|outcome` → the minute bucket already written by this instance. */
  private readonly memo = new Map<string, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly events: Pick<EventBus, 'emit'>,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  async record(use: CredentialUseInput): Promise<void> {
    const at = this.clock.now().getTime();
    const minute = Math.floor(at / CREDENTIAL_USE_THROTTLE_MS);
    const key = `${use.kind}|${use.credentialId}|${use.address}|${use.outcome}`;
    if (this.memo.get(key) === minute) return;
    if (this.memo.size >= MEMO_MAX) this.memo.clear();
    this.memo.set(key, minute);
    try {
      const r = await this.db
        .insertInto('credential_uses')
        .values({
          id: newId(),
          kind: use.kind,
          credential_id: use.credentialId,
          user_id: use.userId,
          at,
          minute,
          address: cut(use.address, 64)!,
          client: cut(use.client, 200),
          action: cut(use.action, 300)!,
          outcome: use.outcome,
          reason: use.reason ?? null,
        })
        .onConflict((oc) => oc.columns(['kind', 'credential_id', 'address', 'outcome', 'minute']).doNothing())
        .executeTakeFirst();
      const inserted = Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
      if (inserted && use.outcome === 'refused') {
        await this.events.emit(
          {
            type: 'credential.refused',
            credential: use.kind,
            name: use.name ?? null,
            action: cut(use.action, 300)!,
            reason: use.reason ?? 'revoked',
            to: { userId: use.userId },
          },
          { address: use.address, userAgent: use.client },
        );
      }
    } catch (err) {
      this.memo.delete(key);
      this.log.warn({ err, kind: use.kind }, 'credential use not recorded');
    }
  }

  async lastUses(kind: CredentialKind, ids: readonly string[]): Promise<Map<string, LastCredentialUse>> {
    const found = new Map<string, LastCredentialUse>();
    if (!ids.length) return found;
    const rows = await this.db
      .selectFrom('credential_uses as u')
      .select(['u.credential_id', 'u.at', 'u.address', 'u.client'])
      .where('u.kind', '=', kind)
      .where('u.credential_id', 'in', [...ids])
      .where('u.outcome', '=', 'ok')
      .where((eb) =>
        eb(
          'u.at',
          '=',
          eb
            .selectFrom('credential_uses as v')
            .select((v) => v.fn.max('v.at').as('m'))
            .whereRef('v.kind', '=', 'u.kind')
            .whereRef('v.credential_id', '=', 'u.credential_id')
            .where('v.outcome', '=', 'ok'),
        ),
      )
      .execute();
    for (const r of rows) found.set(r.credential_id, { at: Number(r.at), address: r.address, client: r.client });
    return found;
  }

  async timeline(
    userId: string,
    kind: CredentialKind,
    credentialId: string,
    before?: { at: number; id: string },
    limit = CREDENTIAL_TIMELINE_PAGE,
  ): Promise<CredentialUse[]> {
    let q = this.db
      .selectFrom('credential_uses')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('credential_id', '=', credentialId);
    if (before)
      q = q.where((eb) =>
        eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]),
      );
    const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind as CredentialKind,
      credentialId: r.credential_id,
      userId: r.user_id,
      at: Number(r.at),
      address: r.address,
      client: r.client,
      action: r.action,
      outcome: r.outcome as CredentialUseOutcome,
      reason: r.reason as CredentialRefusal | null,
    }));
  }

  async forget(kind: CredentialKind, credentialIds: readonly string[]): Promise<void> {
    if (!credentialIds.length) return;
    await this.db
      .deleteFrom('credential_uses')
      .where('kind', '=', kind)
      .where('credential_id', 'in', [...credentialIds])
      .execute();
  }

  async purge(): Promise<void> {
    const cutoff = this.clock.now().getTime() - CREDENTIAL_USE_RETENTION_DAYS * 24 * 60 * 60 * 1000;
    await this.db.deleteFrom('credential_uses').where('at', '<', cutoff).execute();
  }
}
