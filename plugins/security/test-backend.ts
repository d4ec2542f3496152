import { fakeBackend, ok, serviceError, type FakeBackend, type FakeCall } from '../../tests/kit/fake-backend';
import { PATHS } from './api';
import type { HistoryEntry, NotMeResult, SessionInfo, TrustedBrowser } from './contract';

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

/** Options of the fake security service. */
export interface SecurityBackendOptions {
  sessions?: SessionInfo[];
  browsers?: TrustedBrowser[];
  /** The whole history, newest first; pages of `pageSize` with the next entry's id as cursor. */
  history?: HistoryEntry[];
  pageSize?: number;
  /** What "this wasn't me" says it revoked (it ends the other sessions and locks as asked). */
  revoked?: NotMeResult['credentials'];
  /** A status to refuse a call with (the service's error shape), or undefined to answer it. */
  fail?: (call: FakeCall) => { status: number; code: string } | undefined;
}

/** The kit's fake backend answering the security calls from in-memory lists. */
export function securityBackend(options: SecurityBackendOptions = {}): FakeBackend & {
  sessions: SessionInfo[];
  browsers: TrustedBrowser[];
} {
  const sessions = [...(options.sessions ?? [])];
  const browsers = [...(options.browsers ?? [])];
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
    [`POST ${PATHS.notMe}`]: (call) =>
      refused(call) ??
      ok({
        sessions_ended: endOthers(),
        credentials: options.revoked ?? [],
        locked: (call.body as { lock: boolean }).lock,
      }),
  });
  return Object.assign(backend, { sessions, browsers });
}
