import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, errorResponses } from '../errors';
import {
  CREDENTIAL_TIMELINE_PAGE,
  CREDENTIAL_USES_PATH,
  CredentialUsesPageSchema,
  CredentialUsesQuerySchema,
  type CredentialUsesPage,
} from '../../schemas/credential-uses';

/** The `next`/`before` cursor: the last row's time and id, so rows of one instant page without a gap. */
const CURSOR = /^(\d{1,15})-([0-9a-f]{1,40})$/;

/** The cursor after `use`. */
function cursorOf(use: { at: number; id: string }): string {
  return `${use.at}-${use.id}`;
}

/**
 * A credential's usage timeline (issue 42), a core route: the token, SSH key and artifact password pages all open it.
 * The owner check is the rows' own `user_id` (the session's user), so another member's credential id answers an
 * empty page, the same as a credential never used: nothing tells them apart.
 */
export const credentialUseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    CREDENTIAL_USES_PATH,
    {
      config: { auth: 'session' },
      schema: {
        tags: ['security'],
        summary:
          `A page of one of my credentials' uses, newest first (${CREDENTIAL_TIMELINE_PAGE} a page; one row per ` +
          'address, outcome and minute; kept 90 days); pass `next` as `before` for the older page',
        querystring: CredentialUsesQuerySchema,
        response: { 200: CredentialUsesPageSchema, ...errorResponses },
      },
    },
    async (req): Promise<CredentialUsesPage> => {
      const { kind, id, before } = req.query;
      let after: { at: number; id: string } | undefined;
      if (before !== undefined) {
        const m = CURSOR.exec(before);
        if (!m) throw new AppError(400, 'InvalidParameter', { detail: 'querystring/before is not a page cursor' });
        after = { at: Number(m[1]), id: m[2] };
      }
      // One row past the page tells whether an older page exists, so the last page offers no empty "load older".
      const found = await app.ctx.credentialUses.timeline(
        req.session!.user.id,
        kind,
        id,
        after,
        CREDENTIAL_TIMELINE_PAGE + 1,
      );
      const uses = found.slice(0, CREDENTIAL_TIMELINE_PAGE);
      return {
        uses: uses.map((u) => ({
          id: u.id,
          at: new Date(u.at).toISOString(),
          address: u.address,
          client: u.client,
          action: u.action,
          outcome: u.outcome,
          reason: u.reason,
        })),
        next: found.length > CREDENTIAL_TIMELINE_PAGE ? cursorOf(uses[uses.length - 1]) : null,
      };
    },
  );
};
