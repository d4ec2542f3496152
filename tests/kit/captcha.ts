import AES from 'crypto-js/aes';
import { sha256 } from '../../server/auth/random';
import type { AppContext } from '../../server/context';
import { SLIDER_PIECE_SIZE, SLIDER_WIDTH, type SliderAnswer } from '../../schemas/captcha-rules';
import { dayKey } from '../../server/services/captcha/day-key';
import { Client } from './server';

/** A fingerprint-shaped value (the browser sends SHA-256 hex of its canvas drawing). */
export const TEST_UMID = 'a'.repeat(64);

/**
 * A human-looking drag to `x`: it starts from rest (smooth-step pace), overshoots by a few px, comes back and rests
 * 220 ms before the release; 28 points over ~1.4 s with vertical wobble and an uneven pace.
 */
export function humanTrack(x: number): SliderAnswer['track'] {
  const over = Math.min(x + 5, SLIDER_WIDTH - SLIDER_PIECE_SIZE);
  const track: SliderAnswer['track'] = [[0, 0, 0]];
  const n = 24;
  let t = 0;
  for (let i = 1; i <= n; i++) {
    const f = i / n;
    t += 25 + ((i * 7) % 30);
    track.push([Math.round(over * f * f * (3 - 2 * f)), Math.round(Math.sin(i * 1.7) * 3), t]);
  }
  track.push([Math.max(x, over - 2), 2, (t += 70)], [x, 1, (t += 60)], [x, 2, (t += 220)]);
  return track;
}

/** Encrypts an answer as the browser does: crypto-js AES with the UTC date (YYYYMMDD) of `at` as passphrase. */
export function encryptAnswer(answer: SliderAnswer | string, at: number): string {
  return AES.encrypt(typeof answer === 'string' ? answer : JSON.stringify(answer), dayKey(at)).toString();
}

/** The gap's left edge of a puzzle, read from the service's database (what a person sees in the picture). */
export async function puzzleGap(ctx: AppContext, captchaId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('captcha_puzzles')
    .select('x')
    .where('id_hash', '=', sha256(captchaId))
    .executeTakeFirstOrThrow();
  return Number(row.x);
}

/** Asks for a puzzle for `username`, reads where its gap is and answers it like a person: resolves with the pass. */
export async function solveSlider(ctx: AppContext, client: Client, username: string): Promise<string> {
  const base = `/users/ajax/users/${encodeURIComponent(username)}/sliderCaptcha`;
  const puzzle = await client.req('POST', base, { body: {} });
  if (puzzle.status !== 200) throw new Error(`puzzle: ${puzzle.status} ${puzzle.text}`);
  const x = await puzzleGap(ctx, puzzle.json.captcha_id);
  const answer: SliderAnswer = { x, track: humanTrack(x), kind: 'pointer', umid: TEST_UMID };
  const data = encryptAnswer(answer, ctx.clock.now().getTime());
  const verified = await client.req('POST', `${base}:verify`, { body: { captcha_id: puzzle.json.captcha_id, data } });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${verified.text}`);
  return verified.json.pass as string;
}

let addresses = 0;

/** A client address no other caller of this process has used (for `x-forwarded-for` behind TRUST_PROXY=loopback). */
export function freshAddress(): string {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

/**
 * A client acting from its own address: the service must trust the loopback proxy (env `TRUST_PROXY: 'loopback'`),
 * so per-address limits (puzzles, checks, sign-in failures) of one test do not touch another's.
 */
export function clientFrom(base: string, address = freshAddress(), headers: Record<string, string> = {}): Client {
  return new Client(base, { 'x-forwarded-for': address, ...headers });
}

/**
 * Solves `count` sliders for `username`, from fresh addresses (25 each, under the per-address puzzle limit):
 * resolves with that many unspent passes.
 */
export async function solveSliders(ctx: AppContext, base: string, username: string, count: number): Promise<string[]> {
  const passes: string[] = [];
  let client = clientFrom(base);
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % 25 === 0) client = clientFrom(base);
    passes.push(await solveSlider(ctx, client, username));
  }
  return passes;
}
