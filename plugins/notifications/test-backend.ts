import { fakeBackend, ok, serviceError, type FakeBackend, type FakeRequest } from '../../tests/kit/fake-backend';
import { INBOX_URL } from './api';
import type { InboxCounts, InboxListBody, InboxMessage } from './contract';
import { INBOX_APPS, INBOX_PAGE_SIZE_DEFAULT } from './limits';

/** Test-only: the message center's calls as the kit's fake backend answers them, from an in-memory inbox. */

/** A message for tests: unread, not sensitive, from the account application, unless told otherwise. */
export function testMessage(id: string, extra: Partial<InboxMessage> = {}): InboxMessage {
  return {
    id,
    app: 'account',
    type: 'token.created',
    title: `Message ${id}`,
    body: `Body of message ${id}`,
    link: null,
    report_link: null,
    read: false,
    sensitive: false,
    created_at: '2026-11-22T10:00:00.000Z',
    ...extra,
  };
}

/** Options of the fake inbox service. */
export interface InboxBackendOptions {
  /** A status to refuse a call with (the service's error shape), or undefined to answer it. */
  fail?: (call: FakeRequest) => number | undefined;
}

/** The fake backend and the inbox it answers from (newest first); tests change it to mimic other tabs. */
export type InboxBackend = FakeBackend & { messages: InboxMessage[] };

/**
 * The kit's fake backend answering the inbox calls from `messages` (newest first) with the service's rules:
 * keyset pages (the token is the last id), only unread in the Unread tab, sensitive unread messages are refused
 * (404/409 as the service answers) or kept.
 */
export function inboxBackend(messages: InboxMessage[], options: InboxBackendOptions = {}): InboxBackend {
  const inbox = messages.map((m) => ({ ...m }));
  const refused = (call: FakeRequest) => {
    const status = options.fail?.(call);
    return status ? serviceError(status, 'X', 'refused by test', 'r1') : undefined;
  };
  const find = (id: string) => inbox.find((m) => m.id === id);
  const drop = (ids: Set<string>) => {
    for (let i = inbox.length - 1; i >= 0; i--) if (ids.has(inbox[i].id)) inbox.splice(i, 1);
  };
  const notFound = () => serviceError(404, 'InboxMessageNotFound', 'The message does not exist.');
  const counts = (): InboxCounts => ({
    unread: inbox.filter((m) => !m.read).length,
    total: inbox.length,
    apps: INBOX_APPS.map((app) => ({
      app,
      unread: inbox.filter((m) => m.app === app && !m.read).length,
      total: inbox.filter((m) => m.app === app).length,
    })).filter((a) => a.total > 0),
  });
  const backend = fakeBackend({
    [`POST ${INBOX_URL}/messages:list`]: (call) => {
      const body = call.body as InboxListBody;
      const size = body.page_size ?? INBOX_PAGE_SIZE_DEFAULT;
      const matching = inbox.filter((m) => (body.tab !== 'unread' || !m.read) && (!body.app || m.app === body.app));
      const start = body.next_token ? matching.findIndex((m) => m.id === body.next_token) + 1 : 0;
      const page = matching.slice(start, start + size);
      const more = start + size < matching.length;
      return refused(call) ?? ok({ messages: page, pages: { next_token: more ? page.at(-1)!.id : null } });
    },
    [`POST ${INBOX_URL}/messages/unread:countGroupByApp`]: (call) => refused(call) ?? ok(counts()),
    [`POST ${INBOX_URL}/messages/read`]: (call) => {
      const body = call.body as { ids?: string[]; app?: string };
      const hit = inbox.filter(
        (m) => !m.read && (body.ids ? body.ids.includes(m.id) : !body.app || m.app === body.app),
      );
      const no = refused(call);
      if (no) return no;
      for (const m of hit) m.read = true;
      return ok({ count: hit.length, kept: 0 });
    },
    [`POST ${INBOX_URL}/messages/:id/read`]: (call) => {
      const m = find(call.params.id);
      if (!m) return notFound();
      const no = refused(call);
      if (no) return no;
      m.read = true;
      return ok({ success: true });
    },
    [`DELETE ${INBOX_URL}/messages/:id`]: (call) => {
      const m = find(call.params.id);
      if (!m) return notFound();
      if (m.sensitive && !m.read)
        return serviceError(409, 'InboxMessageUnreadSensitive', 'An unread security message cannot be deleted.');
      const no = refused(call);
      if (no) return no;
      drop(new Set([m.id]));
      return ok({ success: true });
    },
    [`POST ${INBOX_URL}/messages:batchDelete`]: (call) => {
      const no = refused(call);
      if (no) return no;
      const listed = (call.body as { ids: string[] }).ids.map(find).filter((m): m is InboxMessage => !!m);
      const kept = listed.filter((m) => m.sensitive && !m.read);
      const gone = listed.filter((m) => !kept.includes(m));
      drop(new Set(gone.map((m) => m.id)));
      return ok({ count: gone.length, kept: kept.length });
    },
    [`POST ${INBOX_URL}/messages:deleteRead`]: (call) => {
      const no = refused(call);
      if (no) return no;
      const app = (call.body as { app?: string }).app;
      const gone = inbox.filter((m) => m.read && (!app || m.app === app));
      drop(new Set(gone.map((m) => m.id)));
      return ok({ count: gone.length, kept: 0 });
    },
  });
  return Object.assign(backend, { messages: inbox });
}
