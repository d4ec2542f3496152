import { edition } from '../../src/core/edition';
import { ORGANIZATION_POLICY_CODES } from '../../src/core/organization';
import { errorCodeOf } from '../../src/core/request/errors';
import { createMemberLookup, type RequestError } from '../../src/core/request';
import { failureOf, type ActionResult, type FailureCodes } from '../../src/core/stores/failure';
import { annotate, SectionStore } from '../../src/core/stores/resource';
import type { SessionStore } from '../../src/core/stores/SessionStore';
import type { StoreCore, StoreFactory } from '../../src/core/stores/root';
import { originsOf, safeRedirect } from '../../src/core/url';
import { hasStrings, isPageOf, isStringOrNull } from '../../src/core/shape';
import { switchOrgApi, type SwitchOrgApi } from './api';
import type { AppAdmin, Organization, OrganizationsListAnswer } from './contract';

/** Policy refusals of a switch, each with its own message; anything else is 'Organisation switch failed'. */
export const SWITCH_FAILURES: FailureCodes = {
  [ORGANIZATION_POLICY_CODES.ipRestricted]: 'switch-org.error.ipRestricted',
  [ORGANIZATION_POLICY_CODES.licenceExpired]: 'switch-org.error.licenceExpired',
  [ORGANIZATION_POLICY_CODES.orderExpired]: 'switch-org.error.orderExpired',
  [ORGANIZATION_POLICY_CODES.secondFactorRequired]: 'switch-org.error.secondFactorRequired',
  [ORGANIZATION_POLICY_CODES.noPermission]: 'switch-org.error.noPermission',
};

const switchFailure = (error: RequestError) =>
  failureOf(error, SWITCH_FAILURES, 'switch-org.switch.failed', { serviceText: false });

/** Case- and accent-insensitive form of a name, for the filter box. */
function folded(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

/** The caller's organisations for the chooser: the first page replaces, "load more" appends; a filter; the switch. */
export class OrganizationsStore extends SectionStore {
  /** The organisations loaded so far, in the service's order (by name). */
  organizations: Organization[] = [];
  /** Token of the next page; null when the last page is loaded. */
  nextToken: string | null = null;
  /** "Load more" is in flight (the list stays as it is meanwhile). */
  loadingMore = false;
  /** The filter box's text; filters the loaded organisations by name. */
  filter = '';
  /** The organisation being switched to, so its row shows progress and no second switch starts. */
  switchingId: string | null = null;
  private readonly api: SwitchOrgApi;
  private readonly session: SessionStore;
  private generation = 0;

  constructor(api: SwitchOrgApi, session: SessionStore) {
    // The page shows a skeleton until the first page has settled.
    super({ loading: true });
    this.api = api;
    this.session = session;
    annotate<OrganizationsStore>(this, {
      observable: ['organizations', 'nextToken', 'loadingMore', 'filter', 'switchingId'],
      action: ['load', 'loadMore', 'setFilter', 'choose', 'seed'],
      computed: ['visible'],
    });
  }

  /** The loaded organisations whose name contains the filter (all of them when it is empty). */
  get visible(): Organization[] {
    const wanted = folded(this.filter.trim());
    return wanted ? this.organizations.filter((o) => folded(o.name).includes(wanted)) : this.organizations;
  }

  /**
   * Takes the first page as the page brought it (`StoreCore.pageData`): loaded at once, and the chooser's own first
   * `load()` makes no call; later loads ask as usual.
   */
  seed(answer: OrganizationsListAnswer): void {
    this.seedWith(() => {
      this.organizations = answer.organizations;
      this.nextToken = answer.pages.next_token || null;
    });
  }

  /** Loads the first page for the signed-in user, replacing whatever was loaded before. */
  async load(): Promise<void> {
    if (this.takeSeed()) return;
    const userId = this.session.user?.id;
    if (!userId) return;
    const generation = ++this.generation;
    await this.loadWith(
      this.api.organizations(userId, null),
      (answer) => {
        if (generation !== this.generation) return;
        this.organizations = answer.organizations;
        this.nextToken = answer.pages.next_token || null;
      },
      () => {
        this.organizations = [];
        this.nextToken = null;
      },
    );
  }

  /** Appends the next page; a failure keeps the list and says so. */
  async loadMore(): Promise<ActionResult> {
    const userId = this.session.user?.id;
    const token = this.nextToken;
    if (!userId || !token || this.loadingMore || this.loading) return { ok: true };
    const generation = this.generation;
    return this.saveWith(this.api.organizations(userId, token), {
      busy: (on) => (this.loadingMore = on),
      failure: (error) => failureOf(error, {}, 'switch-org.list.loadMoreFailed', { serviceText: false }),
      apply: (answer) => {
        // A reload started meanwhile owns the list now.
        if (generation !== this.generation) return;
        const known = new Set(this.organizations.map((o) => o.id));
        this.organizations = [...this.organizations, ...answer.organizations.filter((o) => !known.has(o.id))];
        this.nextToken = answer.pages.next_token || null;
      },
    });
  }

  /** Sets the filter box's text. */
  setFilter(text: string): void {
    this.filter = text;
  }

  /**
   * Makes the organisation current, then reloads the session in it (x-tenant-id, installed apps, header follow
   * without a page reload). IP, licence and order refusals have their own messages; the rest is 'switch failed'.
   */
  async choose(organizationId: string): Promise<ActionResult> {
    if (this.switchingId) return { ok: false };
    const result = await this.saveWith(this.api.lastWorkspace(organizationId), {
      busy: (on) => (this.switchingId = on ? organizationId : null),
      failure: switchFailure,
    });
    if (result.ok) await this.session.enterOrganization(organizationId);
    return result;
  }
}

/**
 * Where the chooser goes after a switch: `nextUrl` when the redirect rule accepts it (a same-origin path, or an
 * address on exactly this origin), normalised, else the settings.
 */
export function nextAfterSwitch(nextUrl: string | null | undefined, currentOrigin: string): string {
  return safeRedirect(nextUrl, { origin: currentOrigin, fallback: '/users/settings' });
}

/** An app administrator as the guard page lists them: name (from the members lookup when the list had none), avatar. */
export interface AdminContact {
  /** The administrator's user id. */
  userId: string;
  /** Display name; '' when neither the admins list nor the lookup knew it. */
  name: string;
  /** Avatar URL from the members lookup; null when unknown. */
  avatar: string | null;
}

/** Why the guard stopped, each with its own page; `redirect` when both calls passed. */
export type EntryState =
  | { kind: 'checking' }
  | { kind: 'redirect'; url: string }
  /** The link names no application. */
  | { kind: 'badParam' }
  /** The link's organisation is not the current one ('link belongs to another organisation'). */
  | { kind: 'mismatch' }
  /** The user may not use the app; `admins` are whom to ask. */
  | { kind: 'noPermission'; admins: AdminContact[] }
  /** The app is not installed in the organisation. */
  | { kind: 'notInstalled' }
  /** The user is not a member of the organisation. */
  | { kind: 'noOrgPermission' }
  /** The organisation could not be reached (unknown, network, server failure). */
  | { kind: 'unreachable' }
  | { kind: 'ipRestricted' }
  | { kind: 'licenceExpired' }
  | { kind: 'orderExpired' }
  /** The organisation requires a second factor the user has not set up (its grace has passed). */
  | { kind: 'secondFactorRequired' };

/** A guard verdict's kind. */
export type EntryKind = EntryState['kind'];

/** The verdicts a failed access call can lead to (they carry nothing else). */
export type RefusalKind = Extract<
  EntryKind,
  | 'notInstalled'
  | 'noOrgPermission'
  | 'unreachable'
  | 'ipRestricted'
  | 'licenceExpired'
  | 'orderExpired'
  | 'secondFactorRequired'
>;

const ENTRY_BY_CODE: Readonly<Record<string, RefusalKind>> = {
  [ORGANIZATION_POLICY_CODES.ipRestricted]: 'ipRestricted',
  [ORGANIZATION_POLICY_CODES.licenceExpired]: 'licenceExpired',
  [ORGANIZATION_POLICY_CODES.orderExpired]: 'orderExpired',
  [ORGANIZATION_POLICY_CODES.secondFactorRequired]: 'secondFactorRequired',
  [ORGANIZATION_POLICY_CODES.noPermission]: 'noOrgPermission',
  AppNotFound: 'notInstalled',
};

/** The guard page a failed access call calls for; anything unexplained (404, network, ≥ 500) is 'unreachable'. */
export function entryKindOf(error: RequestError): RefusalKind {
  const code = errorCodeOf(error);
  return code && Object.hasOwn(ENTRY_BY_CODE, code) ? ENTRY_BY_CODE[code] : 'unreachable';
}

/** Origins an app's `raw_url` may lead to besides this one: those of the edition's absolute application addresses. */
export function appOrigins(): string[] {
  return originsOf(edition.appSwitcher.map((app) => app.url));
}

/** The app key an `app` parameter names (key, id or vpc id, as the edition's switcher lists them). */
export function appKeyOf(appRef: string): string {
  const ref = appRef.toLowerCase();
  const app = edition.appSwitcher.find(
    (a) => a.key.toLowerCase() === ref || a.id?.toLowerCase() === ref || a.vpcId?.toLowerCase() === ref,
  );
  return app?.key ?? appRef;
}

/** The application entry guard: the two access calls, the verdict, and a switch when the link is another organisation's. */
export class AppEntryStore extends SectionStore {
  /** Where the guard stands; the page shows the verdict's own page or leaves for `redirect.url`. */
  state: EntryState = { kind: 'checking' };
  /** The app's display name once the info call answered (for the pages that name it). */
  appName: string | null = null;
  private readonly api: SwitchOrgApi;
  private readonly core: Pick<StoreCore, 'session' | 'client' | 'features'>;
  private sequence = 0;

  constructor(api: SwitchOrgApi, core: Pick<StoreCore, 'session' | 'client' | 'features'>) {
    super();
    this.api = api;
    this.core = core;
    annotate<AppEntryStore, 'settle'>(this, {
      observable: ['state', 'appName'],
      action: ['check', 'switchHere', 'settle'],
    });
  }

  /**
   * Checks the link `/users/switch/{organizationId}/app-entry?app={appRef}` against the current organisation and
   * the two access calls; the redirect may go to `currentOrigin` (the page's) or the edition's app origins.
   */
  async check(organizationId: string, appRef: string | null, currentOrigin: string): Promise<void> {
    const sequence = ++this.sequence;
    this.state = { kind: 'checking' };
    this.appName = null;
    if (!appRef) return this.settle(sequence, { kind: 'badParam' });
    if (this.core.session.user?.organization_id !== organizationId) return this.settle(sequence, { kind: 'mismatch' });
    const [[accessError, access], [infoError, info]] = await Promise.all([
      this.api.appAccess(organizationId, appRef),
      this.api.appInfo(organizationId, appRef),
    ]);
    const name = info?.name ?? null;
    if (accessError) return this.settle(sequence, { kind: entryKindOf(accessError) }, name);
    if (!access.pass) {
      if (access.reason === 'notInstalled') return this.settle(sequence, { kind: 'notInstalled' }, name);
      const admins = await this.admins(organizationId, info?.key ?? appKeyOf(appRef));
      return this.settle(sequence, { kind: 'noPermission', admins }, name);
    }
    if (infoError) return this.settle(sequence, { kind: entryKindOf(infoError) }, name);
    const url = safeRedirect(info.raw_url, { origin: currentOrigin, allowedOrigins: appOrigins(), fallback: '/' });
    this.settle(sequence, { kind: 'redirect', url }, name);
  }

  /** Switches to the link's organisation (from the mismatch page); the page checks again once the session follows. */
  async switchHere(organizationId: string): Promise<ActionResult> {
    const result = await this.saveWith(this.api.lastWorkspace(organizationId), { failure: switchFailure });
    if (result.ok) await this.core.session.enterOrganization(organizationId);
    return result;
  }

  /** Applies a verdict unless a newer check started meanwhile. */
  private settle(sequence: number, state: EntryState, appName: string | null = null): void {
    if (sequence !== this.sequence) return;
    this.state = state;
    this.appName = appName;
  }

  /**
   * The app's administrators, whom a refused user can ask: their names from the admins list, avatars (and names the
   * list lacks) from the members lookup, which answers empty names when it fails; none when the list fails.
   */
  private async admins(organizationId: string, appKey: string): Promise<AdminContact[]> {
    const [error, answer] = await this.api.appAdmins(organizationId);
    if (error) return [];
    const admins = new Map<string, AppAdmin>();
    for (const a of answer.admins) if (a.app_key === appKey && !admins.has(a.user_id)) admins.set(a.user_id, a);
    if (admins.size === 0) return [];
    const lookup = createMemberLookup(this.core.client, {
      privateDeployment: !!this.core.features?.privateDeployment,
      orgId: organizationId,
    });
    const members = new Map((await lookup([...admins.keys()])).map((m) => [m._userId, m]));
    return [...admins.values()].map((a) => {
      const member = members.get(a.user_id);
      return { userId: a.user_id, name: a.name || member?.name || '', avatar: member?.avatar ?? null };
    });
  }
}

/** Built when the chooser first asks for it (`useStore('switchOrganizations')`). */
const createOrganizationsStore: StoreFactory<OrganizationsStore> = (core) => {
  const store = new OrganizationsStore(switchOrgApi(core.client), core.session);
  // The chooser's first render has the first page from the page (else the chooser's load asks for it).
  const brought = (core.pageData('switch-org') as { organizations?: unknown } | null | undefined)?.organizations;
  if (isOrganizationsPage(brought)) store.seed(brought);
  return store;
};

/** A page of the list as the service answers it (what the page brought is checked before the chooser shows it). */
export function isOrganizationsPage(v: unknown): v is OrganizationsListAnswer {
  return isPageOf(v, 'organizations', (o) => hasStrings(o, ['id', 'name']) && isStringOrNull(o.logo));
}
export default createOrganizationsStore;

/** Built when the guard page first asks for it (`useStore('appEntry')`). */
export const createAppEntryStore: StoreFactory<AppEntryStore> = (core) =>
  new AppEntryStore(switchOrgApi(core.client), core);
