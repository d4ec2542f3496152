/**
 * The one rule for secrets in logged text (no imports: safe in any bundle). The web's tracker applies it before an
 * entry leaves the browser (src/core/tracking/sanitize.ts) and the service again before it stores one
 * (server/services/usage-logs.ts), so no client can put a token, code or password into usage_logs.
 */

/**
 * Names of query parameters, fragment parameters and fields whose values are secrets (activation and recovery
 * tokens, sign-in codes and tickets, passwords, captcha passes, session ids, keys). Matched whole for the short,
 * ambiguous names and as a part for the unmistakable ones.
 */
const SECRET_NAME =
  /^(code|flow|pass|ticket|key|sig|signature|otp|nonce|authorization|cookie)$|token|passw|pwd|secret|session|captcha|api_?key|private_?key|access_?key|credential/i;

/** True when a parameter or field of this name carries a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A query or fragment parameter string (`a=1&token=x`) without its secret parameters. */
function dropSecretParams(params: string): string {
  return params
    .split('&')
    .filter((part) => {
      const eq = part.indexOf('=');
      const raw = (eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' ');
      let name = raw;
      try {
        name = decodeURIComponent(raw);
      } catch {
        // keep the raw name
      }
      return !isSecretName(name.trim());
    })
    .join('&');
}

/** A URL, path or query in free text: up to whitespace or a quote (linear, no backtracking). */
const URL_IN_TEXT = /(?:https?:\/\/|\/|\?)[^\s"'<>`]*/gi;
/** A `"name": "value"` pair in JSON text (a logged request body). */
const JSON_STRING_FIELD = /"((?:[^"\\]|\\.){1,100})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;

/**
 * Text without secrets: each URL or path in it (`/users/emails?token=abc`, `https://h/x#access_token=…`) loses
 * the secret parameters of its query and fragment (the others stay as written), and a JSON `"password": "…"`
 * pair in it has its value replaced.
 */
export function redactSecrets(text: string): string {
  let out = text;
  if (out.includes('?') || out.includes('#')) {
    out = out.replace(URL_IN_TEXT, (url) => {
      if (!url.includes('?') && !url.includes('#')) return url;
      const hashAt = url.indexOf('#');
      let main = hashAt < 0 ? url : url.slice(0, hashAt);
      const fragment = hashAt < 0 ? null : url.slice(hashAt + 1);
      const q = main.indexOf('?');
      const query = q < 0 ? '' : main.slice(q + 1);
      const keptQuery = dropSecretParams(query);
      const keptFragment = fragment === null ? null : dropSecretParams(fragment);
      if (keptQuery === query && keptFragment === fragment) return url; // nothing secret: as written
      if (q >= 0) main = keptQuery ? `${main.slice(0, q)}?${keptQuery}` : main.slice(0, q);
      return keptFragment ? `${main}#${keptFragment}` : main;
    });
  }
  if (out.includes('"')) {
    out = out.replace(JSON_STRING_FIELD, (pair, name: string, colon: string, value: string) =>
      value && isSecretName(name) ? `"${name}"${colon}"[redacted]"` : pair,
    );
  }
  return out;
}

/**
 * A log entry (or any value in it) as it may leave the browser: strings through `redactSecrets`, fields named
 * like a secret replaced by `[redacted]`. Stops at 32 levels (deeper values are dropped), so cycles end too.
 */
export function scrubLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 32) return null;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return scrubLogValue(toJSON.call(value), depth + 1);
  if (Array.isArray(value)) return value.map((v) => scrubLogValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = isSecretName(k) && v !== null && v !== undefined && v !== '' ? '[redacted]' : scrubLogValue(v, depth + 1);
  }
  return out;
}
