import { Type, type Static } from '@sinclair/typebox';
import { closed } from '../../schemas/common';
import { LastUseSchema } from '../../schemas/credential-uses';

/**
 * The artifact-repository credential slice's wire shapes, once: the routes hand these schemas to
 * Fastify, the service and the page use their static types (the page with `import type` only).
 */
export * from './limits';

const credentialFields = {
  username: Type.String(),
  has_password: Type.Boolean({ description: 'A password exists (it can be reset, never read)' }),
  effective_at: Type.Union([Type.String(), Type.Null()], {
    description: 'When the latest password starts to be accepted (ISO); null before the first reset',
  }),
  last_use: Type.Union([LastUseSchema, Type.Null()], {
    description: 'The last download the password let through (time, client address, client); null when none',
  }),
};

/** The artifact-repository account; the password is never part of it. */
export const PackagesUserInfoSchema = Type.Object(credentialFields, closed);
/** The artifact-repository account as the credential page shows it. */
export type PackagesUserInfo = Static<typeof PackagesUserInfoSchema>;

/** Reset body: nothing (no body at all counts as `{}`). */
export const PackagesResetBodySchema = Type.Object({}, closed);
/** Static type of the reset body. */
export type PackagesResetBody = Static<typeof PackagesResetBodySchema>;

/** Reset answer: the new password, shown once, and when it starts to be accepted. */
export const PackagesPasswordResetSchema = Type.Object(
  {
    username: credentialFields.username,
    password: Type.String(),
    has_password: credentialFields.has_password,
    effective_at: credentialFields.effective_at,
    last_use: credentialFields.last_use,
  },
  closed,
);
/** The reset answer: the account plus the new password, shown once. */
export type PackagesPasswordReset = Static<typeof PackagesPasswordResetSchema>;
