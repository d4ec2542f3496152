import type { SliderPass, SliderPuzzle } from '../../../schemas/captcha';
import type { RequestClient } from '../request/client';

/** Why the slider is shown; the service may draw or limit puzzles per scene. */
export type SliderScene = 'login' | 'recovery';

/** The account path of the captcha calls: the name is one path segment, so it is URL-encoded. */
function userPath(username: string): string {
  return `/users/ajax/users/${encodeURIComponent(username)}`;
}

/** The slider captcha's two calls (public: no session needed), through the core request client. */
export function captchaApi(client: RequestClient) {
  return {
    /** A new puzzle for the name: background with a gap and the piece, both PNG data URLs. */
    puzzle: (username: string, scene: SliderScene) =>
      client.post<SliderPuzzle>(`${userPath(username)}/sliderCaptcha`, { scene }, { handleUnauthorized: false }),
    /** Sends the encrypted answer; a right one earns a single-use pass bound to the name. */
    verify: (username: string, captchaId: string, data: string) =>
      client.post<SliderPass>(
        `${userPath(username)}/sliderCaptcha:verify`,
        { captcha_id: captchaId, data },
        { handleUnauthorized: false },
      ),
  };
}
