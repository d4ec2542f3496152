import { Type, type Static } from '@sinclair/typebox';
import { closed } from './common';

/**
 * Whether a sign-in for the name is currently possible and needs the slider (same answer for unknown names).
 * With a valid pass (`X-Captcha-Pass`) the account's recovery facts too: it exists and has a verified e-mail,
 * shown masked; otherwise the answer is 404 AccountNotExist or 400 AccountNoEmail.
 */
export const UsernameCheckAnswerSchema = Type.Object(
  {
    locked: Type.Boolean(),
    need_captcha: Type.Boolean(),
    exists: Type.Optional(Type.Boolean()),
    email: Type.Optional(Type.String({ description: 'The verified e-mail, masked (a***@example.com)' })),
  },
  closed,
);
/** Static type of the availability answer. */
export type UsernameCheckAnswer = Static<typeof UsernameCheckAnswerSchema>;
