import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../schemas/common';
import { INBOX_APPS, INBOX_BATCH_MAX, INBOX_ID_MAX, INBOX_PAGE_SIZE_MAX, INBOX_TABS, INBOX_TOKEN_MAX } from './limits';

/**
 * The message center's wire shapes, once: the routes hand these schemas to Fastify, the service and the page use
 * their static types (the page with `import type` only; plain limits come from `./limits`).
 */
export * from './limits';

/** The application a message comes from. */
export const InboxAppSchema = Type.Union(INBOX_APPS.map((a) => Type.Literal(a)));

/** One message of the caller's inbox, its title and body in the caller's language. */
export const InboxMessageSchema = Type.Object(
  {
    id: Type.String(),
    app: InboxAppSchema,
    /** What happened, e.g. `token.created` (the page may pick an icon by it). */
    type: Type.String(),
    title: Type.String(),
    body: Type.String(),
    link: Type.Union([Type.String(), Type.Null()], { description: 'Where to act: a path of this product, or null' }),
    report_link: Type.Union([Type.String(), Type.Null()], {
      description:
        'On a security message of the account, where its owner says "this wasn\'t me" (the security page), when ' +
        'the edition has that page; else null',
    }),
    read: Type.Boolean(),
    sensitive: Type.Boolean({
      description: 'A security event (sensitive behaviour): it cannot be deleted while unread',
    }),
    created_at: Type.String({ description: 'ISO time' }),
  },
  closed,
);
/** One message of the caller's inbox. */
export type InboxMessage = Static<typeof InboxMessageSchema>;

/** A list call: a tab, optionally one application, and where the previous page ended. */
export const InboxListBodySchema = Type.Object(
  {
    tab: Type.Optional(
      Type.Union(
        INBOX_TABS.map((t) => Type.Literal(t)),
        { default: 'all' },
      ),
    ),
    app: Type.Optional(InboxAppSchema),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: INBOX_PAGE_SIZE_MAX })),
    next_token: Type.Optional(
      Type.String({ minLength: 1, maxLength: INBOX_TOKEN_MAX, description: 'The previous answer’s pages.next_token' }),
    ),
  },
  closed,
);
/** What a list call sends. */
export type InboxListBody = Static<typeof InboxListBodySchema>;

/** One page of messages, newest first; `next_token` is null on the last page. */
export const InboxPageSchema = Type.Object(
  {
    messages: Type.Array(InboxMessageSchema),
    pages: Type.Object({ next_token: Type.Union([Type.String(), Type.Null()]) }, closed),
  },
  closed,
);
/** One page of messages. */
export type InboxPage = Static<typeof InboxPageSchema>;

/** The message named in the path. */
export const InboxIdParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: INBOX_ID_MAX }) }, closed);
/** Static type of the message path params. */
export type InboxIdParams = Static<typeof InboxIdParamsSchema>;

const Ids = Type.Array(Type.String({ minLength: 1, maxLength: INBOX_ID_MAX }), {
  minItems: 1,
  maxItems: INBOX_BATCH_MAX,
  uniqueItems: true,
});

/** Mark read: the listed ids, else every unread message (of one application when `app` is given). */
export const InboxReadBodySchema = Type.Object({ ids: Type.Optional(Ids), app: Type.Optional(InboxAppSchema) }, closed);
/** What a mark-read call sends. */
export type InboxReadBody = Static<typeof InboxReadBodySchema>;

/** Delete the listed ids (at most 100); ids of other users' messages change nothing. */
export const InboxBatchDeleteBodySchema = Type.Object({ ids: Ids }, closed);
/** What a batch delete sends. */
export type InboxBatchDeleteBody = Static<typeof InboxBatchDeleteBodySchema>;

/** Delete every read message (of one application when `app` is given). */
export const InboxDeleteReadBodySchema = Type.Object({ app: Type.Optional(InboxAppSchema) }, closed);
/** What a delete-all-read call sends. */
export type InboxDeleteReadBody = Static<typeof InboxDeleteReadBodySchema>;

/** How many messages a change touched. */
export const InboxChangedSchema = Type.Object(
  {
    count: Type.Integer({ description: 'Messages marked read or deleted' }),
    kept: Type.Integer({
      description:
        'Listed messages not deleted because they are unread security messages or e-mail changes younger than 7 days',
    }),
  },
  closed,
);
/** How many messages a change touched. */
export type InboxChanged = Static<typeof InboxChangedSchema>;

/** Unread (and all) messages per application, and the totals of both tabs. */
export const InboxCountsSchema = Type.Object(
  {
    unread: Type.Integer(),
    total: Type.Integer(),
    apps: Type.Array(Type.Object({ app: InboxAppSchema, unread: Type.Integer(), total: Type.Integer() }, closed)),
  },
  closed,
);
/** Unread and total counts per application. */
export type InboxCounts = Static<typeof InboxCountsSchema>;
