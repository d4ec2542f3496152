import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../server/errors';
import { SuccessSchema } from '../../../schemas/common';
import {
  InboxBatchDeleteBodySchema,
  InboxChangedSchema,
  InboxCountsSchema,
  InboxDeleteReadBodySchema,
  InboxIdParamsSchema,
  InboxListBodySchema,
  InboxPageSchema,
  InboxReadBodySchema,
} from '../contract';
import {
  countMessages,
  deleteMessage,
  deleteMessages,
  deleteReadMessages,
  listMessages,
  readMessage,
  readMessages,
} from './service';

const tags = ['notifications'];
const BASE = '/users/ajax/v1/notifications/inbox/messages';

/** The message center at the suite's paths: every call acts on the caller's own messages only. */
export const inboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const session = { auth: 'session' as const };

  app.post(
    `${BASE}::list`,
    {
      config: session,
      schema: {
        tags,
        summary: 'One page of my messages, newest first (tab all|unread, optionally one application)',
        description: 'Keyset paging: pass the answer’s `pages.next_token` to get the next page; null on the last.',
        body: InboxListBodySchema,
        response: { 200: InboxPageSchema, ...errorResponses },
      },
    },
    async (req) =>
      listMessages(ctx, req.session!.user.id, req.locale, {
        tab: req.body.tab,
        app: req.body.app,
        pageSize: req.body.page_size,
        nextToken: req.body.next_token,
      }),
  );

  app.post(
    `${BASE}/unread::countGroupByApp`,
    {
      config: session,
      schema: {
        tags,
        summary: 'My unread and total messages per application, and the totals of both tabs',
        response: { 200: InboxCountsSchema, ...errorResponses },
      },
    },
    async (req) => countMessages(ctx, req.session!.user.id),
  );

  app.post(
    `${BASE}/read`,
    {
      config: session,
      schema: {
        tags,
        summary: 'Mark read: the listed ids (at most 100), else all my unread messages (of one application)',
        body: InboxReadBodySchema,
        response: { 200: InboxChangedSchema, ...errorResponses },
      },
    },
    async (req) => readMessages(ctx, req.session!.user.id, req.body),
  );

  app.post(
    `${BASE}/:id/read`,
    {
      config: session,
      schema: {
        tags,
        summary: 'Mark one of my messages read (404 for anyone else’s)',
        params: InboxIdParamsSchema,
        response: { 200: SuccessSchema, ...errorResponses },
      },
    },
    async (req) => {
      await readMessage(ctx, req.session!.user.id, req.params.id);
      return { success: true };
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: session,
      schema: {
        tags,
        summary: 'Delete one of my messages (404 for anyone else’s; 409 for an unread security message)',
        params: InboxIdParamsSchema,
        response: { 200: SuccessSchema, ...errorResponses },
      },
    },
    async (req) => {
      await deleteMessage(ctx, req.session!.user.id, req.params.id);
      return { success: true };
    },
  );

  app.post(
    `${BASE}::batchDelete`,
    {
      config: session,
      schema: {
        tags,
        summary: 'Delete the listed messages of mine (1 to 100 ids); others’ ids change nothing',
        description: 'Unread security messages are kept and counted in `kept`.',
        body: InboxBatchDeleteBodySchema,
        response: { 200: InboxChangedSchema, ...errorResponses },
      },
    },
    async (req) => deleteMessages(ctx, req.session!.user.id, req.body.ids),
  );

  app.post(
    `${BASE}::deleteRead`,
    {
      config: session,
      schema: {
        tags,
        summary: 'Delete all my read messages (of one application when given)',
        body: InboxDeleteReadBodySchema,
        response: { 200: InboxChangedSchema, ...errorResponses },
      },
    },
    async (req) => deleteReadMessages(ctx, req.session!.user.id, req.body.app),
  );
};
