import { fakeBackend, ok, serviceError, type FakeBackend, type FakeCall } from '../../tests/kit/fake-backend';
import { PATHS } from './api';
import type {
  CredentialHealthItem,
  CredentialRef,
  FactorAdded,
  HistoryEntry,
  NotMeResult,
  Passkey,
  PasskeyAddBody,
  RegistrationOptions,
  SessionInfo,
  TrustedBrowser,
  TwoFactorState,
} from './contract';

/** Test-only: the security calls of the service as a table for the kit's fake backend (`tests/kit/fake-backend.ts`). */

/** A session row for tests (another browser's unless `current`). */
export function testSession(id: string, extra: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id,
    browser: { name: 'Chrome', version: '131', os: 'Windows' },
    method: 'password',
    address: '203.0.113.7',
    place: null,
    created_at: '2026-11-20T08:00:00.000Z',
    last_seen_at: '2026-11-27T09:00:00.000Z',
    expires_at: '2026-11-27T11:00:00.000Z',
    current: false,
    ...extra,
  };
}

/** A trusted browser row for tests. */
export function testBrowser(id: string, extra: Partial<TrustedBrowser> = {}): TrustedBrowser {
  return {
    id,
    browser: { name: 'Firefox', version: '132', os: 'Linux' },
    first_used_at: '2026-10-01T08:00:00.000Z',
    last_used_at: '2026-11-26T08:00:00.000Z',
    current: false,
    ...extra,
  };
}

/** A history entry for tests (a password sign-in unless told). */
export function testEntry(id: string, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id,
    at: '2026-11-27T08:00:00.000Z',
    kind: 'sign-in.succeeded',
    detail: { method: 'password' },
    address: '203.0.113.7',
    browser: { name: 'Chrome', version: '131', os: 'Windows' },
    ...extra,
  };
}

/** A passkey row for tests (a discoverable one, never used, unless told). */
export function testPasskey(id: string, extra: Partial<Passkey> = {}): Passkey {
  return {
    id,
    name: `Key ${id}`,
    created_at: '2026-11-01T08:00:00.000Z',
    last_used_at: null,
    discoverable: true,
    ...extra,
  };
}

/** A credential-health item for tests (a token never used, not stale, unless told). */
export function testHealthItem(id: string, extra: Partial<CredentialHealthItem> = {}): CredentialHealthItem {
  return {
    kind: 'token',
    id,
    name: `token ${id}`,
    createdAt: '2026-10-01T08:00:00.000Z',
    expiresAt: '2027-03-01T08:00:00.000Z',
    lastUse: null,
    marks: ['never-used'],
    stale: false,
    ...extra,
  };
}

/** The fake service's authenticator-app secret (base32) and the one code it takes. */
export const TEST_TOTP = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', code: '123456' } as const;

/** The recovery codes the fake service makes (`round` tells one batch from the next). */
export const testRecoveryCodes = (round = 1): string[] =>
  Array.from({ length: 10 }, (_, i) => `r${round}${i}aa-bbbb-cccc-dddd`);

/** The registration options the fake service hands the browser. */
export const TEST_REGISTRATION_OPTIONS: RegistrationOptions = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { name: 'Test', id: 'localhost' },
  user: { id: 'dTE', name: 'alice', displayName: 'Alice' },
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
  timeout: 60_000,
  excludeCredentials: [],
};

/** Options of the fake security service. */
export interface SecurityBackendOptions {
  sessions?: SessionInfo[];
  browsers?: TrustedBrowser[];
  /** The whole history, newest first; pages of `pageSize` with the next entry's id as cursor. */
  history?: HistoryEntry[];
  pageSize?: number;
  /** The account's second factors at the start (none unless told). */
  twoFactor?: Partial<TwoFactorState>;
  /** What "this wasn't me" says it revoked (it ends the other sessions and locks as asked). */
  revoked?: NotMeResult['credentials'];
  /** The account's credentials and sessions with their marks (credential health). */
  health?: CredentialHealthItem[];
  /** Ids "revoke all stale" keeps although named (used meanwhile, as the service would judge). */
  usedMeanwhile?: string[];
  /** A status to refuse a call with (the service's error shape), or undefined to answer it. */
  fail?: (call: FakeCall) => { status: number; code: string } | undefined;
}

/** The kit's fake backend answering the security calls from in-memory lists. */
export function securityBackend(options: SecurityBackendOptions = {}): FakeBackend & {
  sessions: SessionInfo[];
  browsers: TrustedBrowser[];
  twoFactor: TwoFactorState;
  health: CredentialHealthItem[];
} {
  const sessions = [...(options.sessions ?? [])];
  const browsers = [...(options.browsers ?? [])];
  const health = [...(options.health ?? [])];
  const history = options.history ?? [];
  const pageSize = options.pageSize ?? 2;
  const refused = (call: FakeCall) => {
    const f = options.fail?.(call);
    return f ? serviceError(f.status, f.code, `refused by test (${f.code})`, 'r1') : undefined;
  };
  const endOthers = () => {
    const ended = sessions.filter((s) => !s.current).length;
    sessions.splice(0, sessions.length, ...sessions.filter((s) => s.current));
    return ended;
  };
  const twoFactor: TwoFactorState = {
    totp: null,
    passkeys: [],
    recovery_codes_left: 0,
    required_by: null,
    ...options.twoFactor,
  };
  let totpWaiting = false;
  let round = 0;
  let passkeyIds = 0;
  const hasFactor = () => twoFactor.totp !== null || twoFactor.passkeys.length > 0;
  const state = () => structuredClone(twoFactor);
  /** A factor added: the first one brings ten recovery codes. */
  const added = (first: boolean): FactorAdded => {
    const codes = first ? testRecoveryCodes(++round) : null;
    if (codes) twoFactor.recovery_codes_left = codes.length;
    return { state: state(), recovery_codes: codes };
  };
  /** A factor removed: the last one is refused while an organisation requires one, and takes the codes with it. */
  const removal = (remove: () => void) => {
    const factors = (twoFactor.totp ? 1 : 0) + twoFactor.passkeys.length;
    if (factors === 1 && twoFactor.required_by)
      return serviceError(409, 'SecondFactorRequiredByOrganization', `${twoFactor.required_by.org} requires one`, 'r4');
    remove();
    if (!hasFactor()) twoFactor.recovery_codes_left = 0;
    return ok(state());
  };
  const backend = fakeBackend({
    [`GET ${PATHS.sessions}`]: (call) =>
      refused(call) ?? ok({ sessions, idle_timeout_minutes: 120, absolute_timeout_hours: 24 }),
    [`DELETE ${PATHS.session}`]: (call) => {
      const i = sessions.findIndex((s) => s.id === call.params.id);
      if (i < 0) return serviceError(404, 'SessionNotFound', 'gone', 'r2');
      return refused(call) ?? (sessions.splice(i, 1), ok({ ended: 1 }));
    },
    [`POST ${PATHS.endOthers}`]: (call) => refused(call) ?? ok({ ended: endOthers() }),
    [`GET ${PATHS.trustedBrowsers}`]: (call) => refused(call) ?? ok({ browsers }),
    [`DELETE ${PATHS.trustedBrowser}`]: (call) => {
      const i = browsers.findIndex((b) => b.id === call.params.id);
      if (i < 0) return serviceError(404, 'TrustedBrowserNotFound', 'gone', 'r2');
      return refused(call) ?? (browsers.splice(i, 1), ok({ success: true }));
    },
    [`GET ${PATHS.history}`]: (call) => {
      const r = refused(call);
      if (r) return r;
      const group = call.query.group;
      const shown = group ? history.filter((e) => e.kind.startsWith(group)) : history;
      const start = call.query.cursor ? shown.findIndex((e) => e.id === call.query.cursor) : 0;
      if (start < 0) return serviceError(400, 'HistoryCursorInvalid', 'stale', 'r3');
      const entries = shown.slice(start, start + pageSize);
      return ok({ entries, next: shown[start + pageSize]?.id ?? null });
    },
    [`GET ${PATHS.twoFactor}`]: (call) => refused(call) ?? ok(state()),
    [`POST ${PATHS.totp}`]: (call) => {
      const r = refused(call);
      if (r) return r;
      totpWaiting = true;
      const uri = `otpauth://totp/Test:alice?secret=${TEST_TOTP.secret}&issuer=Test`;
      return ok({ secret: TEST_TOTP.secret, uri, qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>' });
    },
    [`POST ${PATHS.totpConfirm}`]: (call) => {
      const r = refused(call);
      if (r) return r;
      if (!totpWaiting) return serviceError(409, 'TotpNotStarted', 'none waits', 'r5');
      if ((call.body as { code: string }).code !== TEST_TOTP.code)
        return serviceError(400, 'TotpCodeInvalid', 'wrong code', 'r6');
      totpWaiting = false;
      const first = !hasFactor();
      twoFactor.totp = { since: '2026-11-27T09:00:00.000Z' };
      return ok(added(first));
    },
    [`DELETE ${PATHS.totp}`]: (call) => {
      if (!twoFactor.totp) return serviceError(404, 'TotpNotFound', 'none', 'r7');
      return refused(call) ?? removal(() => (twoFactor.totp = null));
    },
    [`POST ${PATHS.passkeyOptions}`]: (call) => refused(call) ?? ok(TEST_REGISTRATION_OPTIONS),
    [`POST ${PATHS.passkeys}`]: (call) => {
      const r = refused(call);
      if (r) return r;
      const body = call.body as PasskeyAddBody;
      const first = !hasFactor();
      twoFactor.passkeys.push(
        testPasskey(`pk-new-${++passkeyIds}`, { name: body.name, created_at: '2026-11-27T09:00:00.000Z' }),
      );
      return ok(added(first));
    },
    [`PATCH ${PATHS.passkey}`]: (call) => {
      const p = twoFactor.passkeys.find((k) => k.id === call.params.id);
      if (!p) return serviceError(404, 'PasskeyNotFound', 'gone', 'r8');
      const r = refused(call);
      if (r) return r;
      p.name = (call.body as { name: string }).name.trim();
      return ok({ ...p });
    },
    [`DELETE ${PATHS.passkey}`]: (call) => {
      const i = twoFactor.passkeys.findIndex((k) => k.id === call.params.id);
      if (i < 0) return serviceError(404, 'PasskeyNotFound', 'gone', 'r8');
      return refused(call) ?? removal(() => twoFactor.passkeys.splice(i, 1));
    },
    [`POST ${PATHS.recoveryCodes}`]: (call) => {
      const r = refused(call);
      if (r) return r;
      if (!hasFactor()) return serviceError(409, 'RecoveryCodesNoFactor', 'no factor', 'r9');
      const codes = testRecoveryCodes(++round);
      twoFactor.recovery_codes_left = codes.length;
      return ok({ codes });
    },
    [`GET ${PATHS.credentialHealth}`]: (call) =>
      refused(call) ??
      ok({
        credentials: health,
        current_session: health.find((c) => c.kind === 'session' && !c.stale)?.id ?? null,
        checked_at: '2026-11-27T09:00:00.000Z',
      }),
    [`POST ${PATHS.revokeStale}`]: (call) => {
      const r = refused(call);
      if (r) return r;
      const named = (call.body as { items: CredentialRef[] }).items;
      const going = health.filter(
        (c) =>
          c.stale && !options.usedMeanwhile?.includes(c.id) && named.some((n) => n.kind === c.kind && n.id === c.id),
      );
      health.splice(0, health.length, ...health.filter((c) => !going.includes(c)));
      return ok({
        revoked: going.map(({ kind, id, name }) => ({ kind, id, name })),
        kept: named.length - going.length,
      });
    },
    [`POST ${PATHS.notMe}`]: (call) =>
      refused(call) ??
      ok({
        sessions_ended: endOthers(),
        credentials: options.revoked ?? [],
        locked: (call.body as { lock: boolean }).lock,
      }),
  });
  return Object.assign(backend, { sessions, browsers, twoFactor, health });
}
