import type { AppContext, RequestOrganization } from '../../../server/context';
import type { AppDescriptor } from '../../../schemas/edition';
import type { ServerLocale } from '../../../server/i18n/index';
import { AppError } from '../../../server/errors';
import {
  MEMBERS_LOOKUP_MAX,
  ORG_ID_MAX,
  ORG_NAME_MAX,
  type AppAccessAnswer,
  type AppAdmin,
  type AppInfo,
  type Member,
  type OrganizationsListAnswer,
} from '../contract';
import './tables';

/** Position after which the next page starts: the last row's sort key. */
interface PageKey {
  name: string;
  id: string;
}

const TOKEN_RE = /^[A-Za-z0-9_-]+$/;

/** The opaque `next_token` of a page: base64url of the last row's (name_lower, id). */
export function encodePageToken(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.name, key.id]), 'utf8').toString('base64url');
}

/** Reads a `next_token` back; anything the service did not produce (bad base64, JSON or key) is a 400. */
export function decodePageToken(token: string): PageKey {
  const invalid = () => new AppError(400, 'InvalidParameter', { detail: 'pagination.next_token' });
  if (!TOKEN_RE.test(token)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== 'string' ||
    typeof value[1] !== 'string' ||
    value[0].length > ORG_NAME_MAX ||
    value[1].length < 1 ||
    value[1].length > ORG_ID_MAX ||
    // Re-encoding must give the same token: no padding, no trailing bits, no alternative spellings.
    encodePageToken({ name: value[0], id: value[1] }) !== token
  )
    throw invalid();
  return { name: value[0], id: value[1] };
}

/**
 * One page of the caller's organisations ordered by (name_lower, id), keyset-paged: the page after
 * `nextToken` is one range of the (user_id, org_name_lower, org_id) index, never an OFFSET, so every page
 * costs the same at 100 or 10,000 memberships. `userId` must be the caller: any other id answers 404,
 * as if it did not exist (nobody can list someone else's organisations).
 */
export async function listMyOrganizations(
  ctx: AppContext,
  callerId: string,
  input: { userId: string; nextToken?: string | null; pageSize: number },
): Promise<OrganizationsListAnswer> {
  if (input.userId !== callerId) throw new AppError(404, 'NotFound');
  const after = input.nextToken ? decodePageToken(input.nextToken) : null;
  let q = ctx.db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.org_id')
    .select(['o.id', 'o.name', 'o.logo', 'm.org_name_lower'])
    .where('m.user_id', '=', callerId);
  if (after) q = q.where((eb) => eb(eb.refTuple('m.org_name_lower', 'm.org_id'), '>', eb.tuple(after.name, after.id)));
  const rows = await q
    .orderBy('m.org_name_lower')
    .orderBy('m.org_id')
    .limit(input.pageSize + 1)
    .execute();
  const page = rows.slice(0, input.pageSize);
  const last = page[page.length - 1];
  return {
    organizations: page.map((r) => ({ id: r.id, name: r.name, logo: r.logo })),
    pages: {
      next_token:
        rows.length > input.pageSize ? encodePageToken({ name: last.org_name_lower ?? '', id: last.id }) : null,
    },
  };
}

/**
 * Makes the organisation the caller's current one (users.current_org_id). The route has entered it first
 * (`enterOrganization`: member, IP whitelist, licence, order); the update itself also names the membership,
 * so it can never point a user at an organisation they do not belong to (403 NoOrganizationPermission).
 */
export async function switchOrganization(ctx: AppContext, userId: string, orgId: string): Promise<void> {
  const r = await ctx.db
    .updateTable('users')
    .set({ current_org_id: orgId })
    .where('id', '=', userId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('memberships')
          .select('memberships.org_id')
          .where('memberships.user_id', '=', userId)
          .where('memberships.org_id', '=', orgId),
      ),
    )
    .executeTakeFirst();
  if (!Number(r.numUpdatedRows)) throw new AppError(403, 'NoOrganizationPermission');
}

/** The edition's switcher entry an app reference names: its key, its id or its vpc id. */
export function describedApp(ctx: AppContext, appRef: string): AppDescriptor | undefined {
  return ctx.edition.appSwitcher.find((d) => d.key === appRef || d.id === appRef || d.vpcId === appRef);
}

/** The app as installed in the organisation, named by key, edition id, vpc id or its installed id. */
async function installedApp(
  ctx: AppContext,
  orgId: string,
  appRef: string,
): Promise<{ app_key: string; app_id: string; descriptor: AppDescriptor | undefined } | undefined> {
  const key = describedApp(ctx, appRef)?.key ?? appRef;
  const row = await ctx.db
    .selectFrom('org_apps')
    .select(['app_key', 'app_id'])
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('app_key', '=', key), eb('app_id', '=', appRef)]))
    .orderBy('installed_at')
    .executeTakeFirst();
  return row && { ...row, descriptor: ctx.edition.appSwitcher.find((d) => d.key === row.app_key) };
}

/** True when the caller administers the app: an organisation admin, or one of the app's admins. */
async function isAppAdmin(ctx: AppContext, userId: string, org: RequestOrganization, appKey: string) {
  if (org.role === 'admin') return true;
  const row = await ctx.db
    .selectFrom('app_admins')
    .select('user_id')
    .where('org_id', '=', org.id)
    .where('app_key', '=', appKey)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !!row;
}

/**
 * Whether the caller may enter the app in the organisation (the guard's first call). Not installed →
 * `notInstalled`. An app with permission rows in the organisation is restricted: only admins (of the
 * organisation or the app) and users holding at least one of its permissions pass (else `noPermission`);
 * an app without any is open to every member.
 */
export async function appAccess(
  ctx: AppContext,
  userId: string,
  org: RequestOrganization,
  appRef: string,
): Promise<AppAccessAnswer> {
  const app = await installedApp(ctx, org.id, appRef);
  if (!app) return { pass: false, reason: 'notInstalled' };
  if (await isAppAdmin(ctx, userId, org, app.app_key)) return { pass: true };
  const permissions = ctx.db
    .selectFrom('app_permissions')
    .select('user_id')
    .where('org_id', '=', org.id)
    .where('app_key', '=', app.app_key);
  if (await permissions.where('user_id', '=', userId).limit(1).executeTakeFirst()) return { pass: true };
  const restricted = await permissions.limit(1).executeTakeFirst();
  return restricted ? { pass: false, reason: 'noPermission' } : { pass: true };
}

/** The app as installed in the organisation, with its `raw_url` from the edition (null when it has none); 404 otherwise. */
export async function appInfo(
  ctx: AppContext,
  org: RequestOrganization,
  appRef: string,
  locale: ServerLocale,
): Promise<AppInfo> {
  const app = await installedApp(ctx, org.id, appRef);
  if (!app) throw new AppError(404, 'AppNotFound');
  return {
    id: app.app_id,
    key: app.app_key,
    name: app.descriptor ? app.descriptor.name[locale] : app.app_key,
    raw_url: app.descriptor?.url ?? null,
  };
}

/** The named permissions the caller holds in the app (sorted); admins hold every permission the app has there. */
export async function appPermissions(
  ctx: AppContext,
  userId: string,
  org: RequestOrganization,
  appRef: string,
): Promise<string[]> {
  const app = await installedApp(ctx, org.id, appRef);
  if (!app) throw new AppError(404, 'AppNotFound');
  const admin = await isAppAdmin(ctx, userId, org, app.app_key);
  let q = ctx.db
    .selectFrom('app_permissions')
    .select('permission')
    .distinct()
    .where('org_id', '=', org.id)
    .where('app_key', '=', app.app_key);
  if (!admin) q = q.where('user_id', '=', userId);
  const rows = await q.orderBy('permission').execute();
  return rows.map((r) => r.permission);
}

/** The organisation's app administrators, by app key then name (whom to ask for access). */
export async function appAdmins(ctx: AppContext, org: RequestOrganization): Promise<AppAdmin[]> {
  return ctx.db
    .selectFrom('app_admins as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.user_id', 'u.name', 'a.app_key'])
    .where('a.org_id', '=', org.id)
    .orderBy('a.app_key')
    .orderBy('u.name')
    .orderBy('a.user_id')
    .execute();
}

/** The edition's help link for a purpose (`helpCenter`, `accessToken`…); 404 when the edition has none. */
export function helpLink(ctx: AppContext, id: string): string {
  const links = ctx.edition.helpLinks as Record<string, string | undefined>;
  const url = Object.hasOwn(links, id) ? links[id] : undefined;
  if (typeof url !== 'string' || !url) throw new AppError(404, 'HelpLinkNotFound');
  return url;
}

/** Splits the `userIds` query: trimmed, empty entries dropped, duplicates once; more than 100 is a 400. */
export function parseUserIds(raw: string): string[] {
  const ids = [...new Set(raw.split(',').map((s) => s.trim()))].filter(Boolean);
  if (ids.length > MEMBERS_LOOKUP_MAX) throw new AppError(400, 'MembersLookupTooMany', { max: MEMBERS_LOOKUP_MAX });
  if (ids.some((id) => id.length > ORG_ID_MAX)) throw new AppError(400, 'InvalidParameter', { detail: 'userIds' });
  return ids;
}

/**
 * Names and avatars of the given users, in the order asked, limited to users who share an organisation
 * with the caller (or, with `orgId`, who belong to that organisation, of which the caller must be a member).
 * Unknown and foreign ids are left out alike, so the lookup reveals nothing about other tenants.
 */
export async function lookupMembers(
  ctx: AppContext,
  callerId: string,
  rawIds: string,
  org?: RequestOrganization,
): Promise<Member[]> {
  const ids = parseUserIds(rawIds);
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('users as u')
    .select(['u.id', 'u.name', 'u.avatar'])
    .where('u.id', 'in', ids)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('memberships as m')
          .select('m.org_id')
          .whereRef('m.user_id', '=', 'u.id')
          .where(
            'm.org_id',
            'in',
            org
              ? [org.id]
              : eb.selectFrom('memberships as mine').select('mine.org_id').where('mine.user_id', '=', callerId),
          ),
      ),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [{ id: r.id, name: r.name, avatar: r.avatar }] : [];
  });
}
