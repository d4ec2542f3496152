import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { AppError } from '../errors';

/** Deepest nesting of arrays and objects a JSON body may have; deeper ones are refused before parsing. */
export const MAX_JSON_DEPTH = 32;

/**
 * The nesting depth of a JSON text, counted by one pass over its characters (no recursion, strings skipped),
 * stopping as soon as it passes `max`: a body of 5,000 brackets costs 33 steps of nesting, not a stack.
 * Returns `max + 1` when the text is deeper than `max`.
 */
export function jsonDepth(text: string, max: number = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return max + 1;
      }
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Parses a JSON body: refused with 400 `JsonTooDeep` when nested deeper than `MAX_JSON_DEPTH` (before any
 * parsing, so no later recursion — validation, `JSON.stringify`, logging — can overflow the stack), 400
 * `InvalidJson` when empty, malformed or carrying `__proto__` / `constructor.prototype` keys.
 */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) throw new AppError(400, 'InvalidJson');
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new AppError(400, 'JsonTooDeep', { max: MAX_JSON_DEPTH });
  try {
    return secureJsonParse(text, null, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new AppError(400, 'InvalidJson');
  }
}

/**
 * Replaces Fastify's JSON parser with `parseJsonBody` for every route. Each route's `bodyLimit` (the service's
 * default otherwise) still applies while the body is read, answered 413 `PayloadTooLarge`.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
}
