// Shared by the two programs sshd starts for git over SSH (issue 42): the AuthorizedKeysCommand (authorized-keys.mjs)
// and the forced command (gate.mjs). Plain Node ESM, no build and no dependency, so each SSH connection pays little
// more than Node's start. sshd clears the environment, so the configuration comes from a JSON file whose
// path is the programs' first argument (the wrapper scripts scripts/lib/sshd.ts writes pass it); the secret is only in
// that file (mode 0600), never on a command line.
import fs from 'node:fs';

/** How long a question to the service may take before the connection is refused (ms). */
export const SERVICE_TIMEOUT_MS = 10_000;

/** The header the internal API reads INTERNAL_API_SECRET from (server/http/pipeline.ts). */
const SECRET_HEADER = 'x-internal-secret';

/**
 * @typedef {object} GateConfig
 * @property {string} service The account service's base URL, e.g. http://127.0.0.1:3000
 * @property {string} secret INTERNAL_API_SECRET of the service
 * @property {string} repositories The repository root: `<root>/<organisation name>/<repo>.git`
 * @property {string} [gate] The forced command the authorized_keys lines name (absolute path of the gate's wrapper)
 * @property {string} [git] The git binary the gate runs (default /usr/bin/git)
 * @property {'zh_CN' | 'en_US'} [locale] What the gate says before the service named the member's language
 */

/**
 * Reads and checks the configuration file; exits with a message on stderr when it is unusable.
 * @param {string | undefined} file
 * @returns {GateConfig}
 */
export function readConfig(file) {
  try {
    if (!file) throw new Error('no configuration file given');
    const c = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof c.service !== 'string' || typeof c.secret !== 'string' || typeof c.repositories !== 'string')
      throw new Error('service, secret and repositories are required');
    return c;
  } catch (e) {
    // The message names the file and the problem, never the secret.
    process.stderr.write(`git gate: configuration ${file ?? ''}: ${/** @type {Error} */ (e).message}\n`);
    process.exit(1);
  }
}

/**
 * Calls the internal API with the secret; resolves the answer's status and body, or null when the service could not
 * be reached. node:http rather than the global fetch: loading fetch (undici) costs each SSH connection twice what the
 * rest of the program does.
 * @param {GateConfig} config
 * @param {string} path e.g. /internal/v1/ssh/git-access
 * @param {{ method?: string, body?: unknown, language?: string }} [options]
 * @returns {Promise<{ status: number, body: string } | null>}
 */
export async function askService(config, path, options = {}) {
  const url = new URL(path, config.service);
  const client = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  /** @type {Record<string, string>} */
  const headers = { [SECRET_HEADER]: config.secret };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  if (options.language) headers['accept-language'] = options.language;
  return new Promise((resolve) => {
    const req = client.request(
      url,
      { method: options.method ?? 'GET', headers, timeout: SERVICE_TIMEOUT_MS },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve(null));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end(payload);
  });
}
