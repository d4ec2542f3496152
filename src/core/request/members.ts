import { MEMBERS_TIMEOUT_MS } from './constants';
import type { RequestClient } from './client';

/** A member as the lookup returns it; `name` is empty when the lookup failed. */
export interface Member {
  /** The user id the name belongs to. */
  _userId: string;
  /** Display name; '' when unknown so the UI shows a blank (or a name it already had) instead of an error. */
  name: string;
  /** Avatar URL; null when the user has none or the lookup failed. */
  avatar: string | null;
}

/** Where and how members are looked up. */
export interface MemberLookupOptions {
  /** Private deployments serve members per organisation (`edition.features.privateDeployment`). */
  privateDeployment: boolean;
  /** Current organisation id, needed for the private-deployment path. */
  orgId?: string | (() => string | undefined);
  /** Defaults to 5000 ms, independent of the client's default. */
  timeoutMs?: number;
}

/** The lookup path: the platform-wide list, or the organisation's list in private deployments. */
export function membersListUrl(privateDeployment: boolean, orgId: string | undefined): string {
  return privateDeployment ? `/api/organizations/${encodeURIComponent(orgId ?? '')}/members/list` : '/api/members/list';
}

function toMembers(data: unknown): Array<Partial<Member>> {
  if (Array.isArray(data)) return data as Array<Partial<Member>>;
  if (data && typeof data === 'object') {
    for (const key of ['result', 'members', 'data', 'list']) {
      const v = (data as Record<string, unknown>)[key];
      if (Array.isArray(v)) return v as Array<Partial<Member>>;
    }
  }
  return [];
}

/** Builds a lookup that resolves every asked id to a member, with an empty name for anything it could not find. */
export function createMemberLookup(client: RequestClient, options: MemberLookupOptions) {
  return async function lookupMembers(userIds: readonly string[]): Promise<Member[]> {
    const ids = [...new Set(userIds.filter(Boolean))];
    if (ids.length === 0) return [];
    const orgId = typeof options.orgId === 'function' ? options.orgId() : options.orgId;
    const [error, data] = await client.get(
      membersListUrl(options.privateDeployment, orgId),
      { userIds: ids },
      { timeoutMs: options.timeoutMs ?? MEMBERS_TIMEOUT_MS, handleUnauthorized: false },
    );
    const found = new Map<string, Member>();
    if (!error) {
      for (const m of toMembers(data)) {
        const id = m?._userId ?? (m as { id?: string })?.id;
        if (id)
          found.set(String(id), {
            _userId: String(id),
            name: typeof m.name === 'string' ? m.name : '',
            avatar: typeof m.avatar === 'string' && m.avatar ? m.avatar : null,
          });
      }
    }
    return ids.map((id) => found.get(id) ?? { _userId: id, name: '', avatar: null });
  };
}
