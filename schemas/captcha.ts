import { Type, type Static } from '@sinclair/typebox';
import { closed } from './common';
import { SLIDER_ANSWER_MAX } from './captcha-rules';

/** The slider captcha's wire shapes (core: sign-in and password recovery both use it). */

/** Longest pass or puzzle id the service reads. */
const ID_MAX = 128;

/** What a new puzzle request names: why the slider is shown (sign-in or recovery). */
export const SliderPuzzleBodySchema = Type.Object(
  { scene: Type.Optional(Type.Union([Type.Literal('login'), Type.Literal('recovery')])) },
  closed,
);
/** Static type of the puzzle request body. */
export type SliderPuzzleBody = Static<typeof SliderPuzzleBodySchema>;

/** A new puzzle: the background with its gap and the piece, both PNG data URLs, drawn anew for every request. */
export const SliderPuzzleSchema = Type.Object(
  {
    captcha_id: Type.String({ description: 'Names this puzzle in the verify call' }),
    background: Type.String({ description: 'data:image/png;base64 — the picture with the gap' }),
    piece: Type.String({ description: 'data:image/png;base64 — the piece (transparent outside its outline)' }),
    width: Type.Integer(),
    height: Type.Integer(),
    piece_size: Type.Integer(),
    piece_y: Type.Integer({ description: 'Top of the piece in the background, px' }),
    expires_at: Type.Number({ description: 'Epoch ms after which the puzzle cannot be solved' }),
  },
  closed,
);
/** Static type of a puzzle. */
export type SliderPuzzle = Static<typeof SliderPuzzleSchema>;

/** The answer to a puzzle: its id and the encrypted `SliderAnswer` (schemas/captcha-rules). */
export const SliderVerifyBodySchema = Type.Object(
  {
    captcha_id: Type.String({ minLength: 1, maxLength: ID_MAX }),
    data: Type.String({ minLength: 1, maxLength: SLIDER_ANSWER_MAX }),
  },
  closed,
);
/** Static type of the verify body. */
export type SliderVerifyBody = Static<typeof SliderVerifyBodySchema>;

/** A solved puzzle's pass: single use, for the username it was solved for, valid briefly. */
export const SliderPassSchema = Type.Object(
  {
    pass: Type.String({ description: 'Send once: as `captcha_pass` of a sign-in, or `X-Captcha-Pass` of a check' }),
    expires_at: Type.Number(),
  },
  closed,
);
/** Static type of a pass. */
export type SliderPass = Static<typeof SliderPassSchema>;

/** A pass as a request carries it. */
export const CaptchaPassSchema = Type.String({ minLength: 1, maxLength: ID_MAX });
