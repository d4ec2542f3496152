import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { AppContext } from '../../../server/context';
import type { DB } from '../../../server/db/schema';
import { AppError } from '../../../server/errors';
import { cleanTextForCli } from '../../../server/clean-text';
import type { AccountEvent, EventBus, EventDeps } from '../../../server/events';
import type { ServerLocale } from '../../../server/i18n/index';
import { newId } from '../../../server/auth/random';
import { AccountError, findOrgByName } from '../../../server/services/accounts';
import {
  INBOX_APPS,
  INBOX_PAGE_SIZE_DEFAULT,
  INBOX_RETENTION_DAYS,
  NOTICE_BODY_MAX,
  NOTICE_TITLE_MAX,
  type InboxApp,
  type InboxChanged,
  type InboxCounts,
  type InboxMessage,
  type InboxPage,
  type InboxTab,
} from '../contract';
import { KEEP_MS, KEPT_TYPES, messageKind } from './texts';
import type { InboxMessagesTable } from './tables';

/** Recipients inserted per statement (PostgreSQL allows 65,535 parameters; a row takes 9). */
const INSERT_BATCH = 500;

/** The users an event is for: one account, or an organisation's members (or admins). */
async function recipients(db: Kysely<DB>, to: AccountEvent['to']): Promise<string[]> {
  if ('userId' in to) return [to.userId];
  let q = db.selectFrom('memberships').select('user_id').where('org_id', '=', to.orgId);
  if (to.role) q = q.where('role', '=', to.role);
  return (await q.execute()).map((r) => r.user_id);
}

/**
 * The inbox's event receiver: one message per recipient, rendered later in the reader's language. A keyed event
 * (found by a scheduler, maybe on several instances at once) is inserted only if absent: the unique index on
 * (user, key) makes it exactly one message, whichever instance comes first. True when it wrote for someone: the
 * answer of the call that caused it tells the caller (`x-account-events`).
 */
export async function receiveEvent(deps: EventDeps, event: AccountEvent): Promise<boolean> {
  const kind = messageKind(event.type);
  if (!kind) return false;
  const { to, key, ...body } = event;
  const users = await recipients(deps.db, to);
  const now = deps.clock.now().getTime();
  const params = JSON.stringify(body);
  for (let i = 0; i < users.length; i += INSERT_BATCH) {
    const rows = users.slice(i, i + INSERT_BATCH).map((userId): InboxMessagesTable => ({
      id: newId(),
      user_id: userId,
      app: kind.app,
      type: event.type,
      params,
      sensitive: kind.sensitive ? 1 : 0,
      read_at: null,
      created_at: now,
      event_key: key ?? null,
    }));
    await deps.db
      .insertInto('inbox_messages')
      .values(rows)
      .onConflict((oc) => oc.columns(['user_id', 'event_key']).doNothing())
      .execute();
  }
  return users.length > 0;
}

/** Where the owner of an account says a security event was not theirs (the security slice's page). */
const NOT_ME_PATH = '/users/settings/security?not-me=1';

/**
 * A stored message as the caller reads it, in the caller's language; `reportable` when the edition has the security
 * page, where a security message of the account can be answered with "this wasn't me".
 */
function toView(row: InboxMessagesTable, locale: ServerLocale, reportable: boolean): InboxMessage {
  const kind = messageKind(row.type);
  let text = { title: row.type, body: '' };
  if (kind) {
    try {
      text = kind.text[locale](JSON.parse(row.params) as never);
    } catch {
      // A row this version cannot render still lists (and can be read and deleted).
    }
  }
  return {
    id: row.id,
    app: (INBOX_APPS as readonly string[]).includes(row.app) ? (row.app as InboxApp) : 'account',
    type: row.type,
    title: text.title,
    body: text.body,
    link: kind?.link ?? null,
    report_link:
      reportable && row.sensitive === 1 && row.app === 'account' && row.type !== 'account.not-me' ? NOT_ME_PATH : null,
    read: row.read_at !== null,
    sensitive: row.sensitive === 1,
    created_at: new Date(Number(row.created_at)).toISOString(),
  };
}

/** Where a page ends, as the next call names it: `<created_at>.<id>` in base64url (opaque to clients). */
function encodeToken(row: Pick<InboxMessagesTable, 'created_at' | 'id'>): string {
  return Buffer.from(`${Number(row.created_at)}.${row.id}`).toString('base64url');
}

const TOKEN_RE = /^(\d{1,16})\.([0-9a-f]{1,32})$/;

/** The position a continuation token names; 400 when it is not one this service wrote. */
function decodeToken(token: string): { createdAt: number; id: string } {
  const m = TOKEN_RE.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m) throw new AppError(400, 'InboxPageTokenInvalid');
  return { createdAt: Number(m[1]), id: m[2] };
}

/** One page of the caller's messages, newest first, after the position `nextToken` names (keyset, no OFFSET). */
export async function listMessages(
  ctx: AppContext,
  userId: string,
  locale: ServerLocale,
  input: { tab?: InboxTab; app?: InboxApp; pageSize?: number; nextToken?: string },
): Promise<InboxPage> {
  const size = input.pageSize ?? INBOX_PAGE_SIZE_DEFAULT;
  let q = ctx.db.selectFrom('inbox_messages').selectAll().where('user_id', '=', userId);
  if (input.app) q = q.where('app', '=', input.app);
  if (input.tab === 'unread') q = q.where('read_at', 'is', null);
  if (input.nextToken) {
    const after = decodeToken(input.nextToken);
    q = q.where(sql<boolean>`(created_at, id) < (${after.createdAt}, ${after.id})`);
  }
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(size + 1)
    .execute();
  const page = rows.slice(0, size);
  return {
    messages: page.map((r) => toView(r, locale, ctx.edition.plugins.includes('security'))),
    pages: { next_token: rows.length > size ? encodeToken(page[page.length - 1]) : null },
  };
}

/** Whether the caller has a message with this id (another user's id answers as if it did not exist). */
async function ownMessage(ctx: AppContext, userId: string, id: string) {
  return ctx.db
    .selectFrom('inbox_messages')
    .select(['id', 'sensitive', 'read_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Marks one of the caller's messages read (again is fine); 404 for anyone else's. */
export async function readMessage(ctx: AppContext, userId: string, id: string): Promise<void> {
  const r = await ctx.db
    .updateTable('inbox_messages')
    .set({ read_at: ctx.clock.now().getTime() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0 && !(await ownMessage(ctx, userId, id))) {
    throw new AppError(404, 'InboxMessageNotFound');
  }
}

/** Marks read the listed messages of the caller, else all unread ones (of one application when given). */
export async function readMessages(
  ctx: AppContext,
  userId: string,
  input: { ids?: string[]; app?: InboxApp },
): Promise<InboxChanged> {
  let q = ctx.db
    .updateTable('inbox_messages')
    .set({ read_at: ctx.clock.now().getTime() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (input.ids) q = q.where('id', 'in', input.ids);
  if (input.app) q = q.where('app', '=', input.app);
  const r = await q.executeTakeFirst();
  return { count: Number(r.numUpdatedRows), kept: 0 };
}

/** Messages that may be deleted: read or not a security message, and not kept (an e-mail change within 7 days). */
function deletable(ctx: AppContext) {
  const keptSince = ctx.clock.now().getTime() - KEEP_MS;
  return (eb: ExpressionBuilder<DB, 'inbox_messages'>) =>
    eb.and([
      eb.or([eb('sensitive', '=', 0), eb('read_at', 'is not', null)]),
      eb.or([eb('type', 'not in', KEPT_TYPES), eb('created_at', '<=', keptSince)]),
    ]);
}

/**
 * Deletes one of the caller's messages: 404 for anyone else's, 409 while a security message is unread or an
 * e-mail change is younger than 7 days.
 */
export async function deleteMessage(ctx: AppContext, userId: string, id: string): Promise<void> {
  const r = await ctx.db
    .deleteFrom('inbox_messages')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where(deletable(ctx))
    .executeTakeFirst();
  if (Number(r.numDeletedRows) > 0) return;
  const own = await ownMessage(ctx, userId, id);
  if (!own) throw new AppError(404, 'InboxMessageNotFound');
  if (own.sensitive === 1 && own.read_at === null) throw new AppError(409, 'InboxMessageUnreadSensitive');
  throw new AppError(409, 'InboxMessageKept', { days: KEEP_MS / 86_400_000 });
}

/**
 * Deletes the listed messages of the caller in one transaction; ids of other users' messages and unknown ids
 * change nothing, and unread security messages stay (counted in `kept`).
 */
export async function deleteMessages(ctx: AppContext, userId: string, ids: string[]): Promise<InboxChanged> {
  return ctx.db.transaction().execute(async (trx) => {
    const kept = await trx
      .selectFrom('inbox_messages')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .where((eb) => eb.not(deletable(ctx)(eb)))
      .executeTakeFirstOrThrow();
    const r = await trx
      .deleteFrom('inbox_messages')
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .where(deletable(ctx))
      .executeTakeFirst();
    return { count: Number(r.numDeletedRows), kept: Number(kept.n) };
  });
}

/** Deletes every read message of the caller (of one application when given); e-mail changes stay their 7 days. */
export async function deleteReadMessages(ctx: AppContext, userId: string, app?: InboxApp): Promise<InboxChanged> {
  let q = ctx.db
    .deleteFrom('inbox_messages')
    .where('user_id', '=', userId)
    .where('read_at', 'is not', null)
    .where(deletable(ctx));
  if (app) q = q.where('app', '=', app);
  const r = await q.executeTakeFirst();
  return { count: Number(r.numDeletedRows), kept: 0 };
}

/** Unread and total messages of the caller per application, and both tabs' totals (one grouped query). */
export async function countMessages(ctx: AppContext, userId: string): Promise<InboxCounts> {
  const rows = await ctx.db
    .selectFrom('inbox_messages')
    .select((eb) => [
      'app',
      eb.fn.countAll<string | number>().as('total'),
      // count(*), not count(id): the index (user_id, app, read_at) answers alone (id is not in it).
      eb.fn.countAll<string | number>().filterWhere('read_at', 'is', null).as('unread'),
    ])
    .where('user_id', '=', userId)
    .groupBy('app')
    .execute();
  const apps = rows
    .filter((r) => (INBOX_APPS as readonly string[]).includes(r.app))
    .map((r) => ({ app: r.app as InboxApp, unread: Number(r.unread), total: Number(r.total) }));
  return {
    unread: apps.reduce((n, a) => n + a.unread, 0),
    total: apps.reduce((n, a) => n + a.total, 0),
    apps,
  };
}

/** Housekeeping: messages older than the retention go, read or not. */
export async function purgeOldMessages(ctx: AppContext): Promise<void> {
  const before = ctx.clock.now().getTime() - INBOX_RETENTION_DAYS * 24 * 60 * 60 * 1000;
  await ctx.db.deleteFrom('inbox_messages').where('created_at', '<', before).execute();
}

/**
 * An administrator's notice as posted (trimmed, NFC, line breaks of the body as LF), or the reason it is refused,
 * naming the option: the text rule of schemas/clean-text.ts, the title on one line, the body on several.
 */
export function cleanNotice(title: string, body: string): { title: string; body: string } | { problem: string } {
  const t = cleanTextForCli(title.trim(), '--title');
  if ('problem' in t) return t;
  if (!t.text || t.text.length > NOTICE_TITLE_MAX)
    return { problem: `--title must be 1 to ${NOTICE_TITLE_MAX} characters` };
  const b = cleanTextForCli(body.trim(), '--body', { multiline: true });
  if ('problem' in b) return b;
  if (!b.text || b.text.length > NOTICE_BODY_MAX)
    return { problem: `--body must be 1 to ${NOTICE_BODY_MAX} characters` };
  return { title: t.text, body: b.text };
}

/**
 * Posts an administrator's notice (as cleanNotice gives it) to every member of the organisation named (through the event bus, so it reaches
 * the inbox like any event); answers the organisation's name and how many members it reached. AccountError (a CLI
 * refusal) for an unknown organisation.
 */
export async function postNotice(
  deps: EventDeps & { events: EventBus },
  orgName: string,
  title: string,
  body: string,
): Promise<{ org: string; members: number }> {
  const org = await findOrgByName(deps.db, orgName);
  if (!org) throw new AccountError(`organisation "${orgName}" does not exist`);
  const members = await deps.db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('org_id', '=', org.id)
    .executeTakeFirstOrThrow();
  await deps.events.emit({
    type: 'org.notice',
    org: org.name,
    title,
    body,
    to: { orgId: org.id },
  });
  return { org: org.name, members: Number(members.n) };
}
