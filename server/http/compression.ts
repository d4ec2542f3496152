import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers shorter than this go as they are: compressing them saves less than the headers cost. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses JSON, HTML and text answers over the threshold (Brotli at a quality cheap enough per request, else
 * gzip) and adds `Vary: Accept-Encoding`. Built assets are not compressed here: the build wrote `.br`/`.gz` files
 * beside them and the static handler sends those (an answer that already has a Content-Encoding is left alone).
 *
 * BREACH: a compressed answer may leak a secret only if it also reflects attacker-chosen text; the documents
 * carry the CSRF token but reflect nothing from the request, and the JSON calls that answer secrets (a new token,
 * a reset password) need a session and the CSRF header, so no third party can make a browser repeat them.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
