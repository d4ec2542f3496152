import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../../../server/errors';
import {
  HISTORY_DAYS,
  HistoryExportQuerySchema,
  HistoryPageSchema,
  HistoryQuerySchema,
  SECURITY_PATHS,
} from '../contract';
import { historyPage } from './history-service';
import { historyCsv } from './history-csv';

/** Exports one account may ask for per minute: each walks its whole history. */
export const HISTORY_EXPORTS_PER_MINUTE = 20;

const tags = ['security'];

/**
 * The account's history (SECURITY_PATHS in ../contract): a page and the CSV export, both of the caller's own entries
 * of the last `HISTORY_DAYS` days and only readable — the service writes the history, nobody edits it.
 */
export const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    SECURITY_PATHS.history,
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: `My sign-ins, lockouts, password, email, device, credential and session changes of the last ${HISTORY_DAYS} days, newest first`,
        description:
          'Keyset paging: pass the answer’s `next` as `cursor` for the following page (null on the last). A cursor ' +
          'this service did not write for the caller answers 400 HistoryCursorInvalid. `group` filters by kind.',
        querystring: HistoryQuerySchema,
        response: { 200: HistoryPageSchema, ...errorResponses },
      },
    },
    async (req) => historyPage(ctx, req.session!.user.id, req.query),
  );

  app.get(
    SECURITY_PATHS.historyExport,
    {
      config: { auth: 'session', limit: { name: 'history-export', perUser: HISTORY_EXPORTS_PER_MINUTE } },
      schema: {
        tags,
        summary: `My history of the last ${HISTORY_DAYS} days as a CSV file (the same filter), in my language`,
        description:
          'text/csv; charset=utf-8 with a UTF-8 BOM and a header row, as an attachment. Cells a spreadsheet would ' +
          'read as a formula start with an apostrophe.',
        querystring: HistoryExportQuerySchema,
        response: { 200: Type.String({ description: 'The CSV file' }), ...errorResponses },
      },
    },
    async (req, reply) => {
      const csv = historyCsv(ctx, req.session!.user.id, req.query.group, req.locale);
      const day = ctx.clock.now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="account-history-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv));
    },
  );
};
