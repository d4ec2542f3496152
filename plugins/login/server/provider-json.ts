import crypto from 'node:crypto';
import secureJsonParse from 'secure-json-parse';

/**
 * A number of a provider's answer that is not written as a safe integer (beyond ±(2^53 − 1), with a fraction or an
 * exponent): JSON.parse would round it (9007199254740993 reads as …992), so it is kept as its text instead.
 */
export class InexactNumber {
  constructor(
    /** The number as the provider wrote it. */
    readonly text: string,
  ) {}
}

// A JSON number token (RFC 8259), matched where a value starts; and the integers written plainly.
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const OPTIONS = { protoAction: 'remove', constructorAction: 'remove' } as const;

/**
 * Parses a provider's JSON answer exactly: a number that is not a safe integer as written comes back as an
 * InexactNumber (its text), never as a rounded number, so an account id can neither be rounded onto another
 * account's nor be told apart by a float. Node 20's JSON.parse gives a reviver no source text, so such number
 * tokens (found outside strings) are swapped for a string carrying a random per-call marker before parsing and
 * turned back in the reviver; a provider cannot write the marker. `__proto__` and `constructor` keys are dropped. Throws on bad JSON.
 */
export function parseProviderJson(text: string): unknown {
  const marker = `\u0000inexact-${crypto.randomBytes(12).toString('hex')}:`;
  const inexact: string[] = [];
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Skips the string (its escapes too); an unterminated one runs to the end and JSON.parse refuses it.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i += text.charCodeAt(i) === 0x5c /* \ */ ? 2 : 1);
      i++;
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)?.[0];
      if (!token) {
        i++;
        continue;
      }
      if (!PLAIN_INTEGER.test(token) || !Number.isSafeInteger(Number(token))) {
        out += text.slice(copied, i) + JSON.stringify(marker + inexact.length);
        inexact.push(token);
        copied = i + token.length;
      }
      i += token.length;
      continue;
    }
    i++;
  }
  if (!inexact.length) return secureJsonParse(text, null, OPTIONS);
  out += text.slice(copied);
  return secureJsonParse(
    out,
    (_key: string, value: unknown) =>
      typeof value === 'string' && value.startsWith(marker)
        ? new InexactNumber(inexact[Number(value.slice(marker.length))])
        : value,
    OPTIONS,
  );
}
