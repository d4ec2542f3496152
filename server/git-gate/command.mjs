// What a git client asks for over SSH (SSH_ORIGINAL_COMMAND), parsed for the gate (gate.mjs) without trusting it.

/** The git commands let through, with git's subcommand for each: upload-pack and upload-archive read, receive-pack writes. */
export const COMMANDS = {
  'git-upload-pack': 'upload-pack',
  'git-upload-archive': 'upload-archive',
  'git-receive-pack': 'receive-pack',
};

/** Longest repository path accepted (the service's limit too). */
const PATH_MAX = 300;
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The argument as git quotes it (`'a/b.git'`, a quote as `'\''`, `!` as `'\!'`) or a bare word; null otherwise.
 * @param {string} text
 * @returns {string | null}
 */
export function unquote(text) {
  if (/^[A-Za-z0-9._/-]+$/.test(text)) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return null;
      out += text.slice(i + 1, end);
      i = end + 1;
    } else if (text[i] === '\\' && (text[i + 1] === "'" || text[i + 1] === '!')) {
      out += text[i + 1];
      i += 2;
    } else {
      return null;
    }
  }
  return out;
}

/**
 * A repository path safe to hand on: under the repository root whatever it says (at most one leading `/`, which is
 * the root, as an ssh:// URL sends it), two parts, no empty part nor one starting with a dot (so no `.`/`..`), no
 * backslash or control character, no `~`.
 * @param {string} p
 * @returns {boolean}
 */
export function safeRepositoryPath(p) {
  if (!p || p.length > PATH_MAX || CONTROL.test(p) || p.includes('\\') || p.startsWith('~')) return false;
  const parts = (p.startsWith('/') ? p.slice(1) : p).split('/');
  return parts.length === 2 && parts.every((s) => s !== '' && !s.startsWith('.'));
}

/**
 * What the client asked for: the command and the repository path; null for another command, 'bad-path' for a git
 * command on a path that is not safe.
 * @param {string} original SSH_ORIGINAL_COMMAND
 * @returns {{ command: keyof typeof COMMANDS, repository: string } | null | 'bad-path'}
 */
export function parseCommand(original) {
  const m = /^git[- ](upload-pack|upload-archive|receive-pack) (.+)$/s.exec(original.trim());
  if (!m) return null;
  const repository = unquote(m[2]);
  if (repository === null || !safeRepositoryPath(repository)) return 'bad-path';
  return { command: /** @type {keyof typeof COMMANDS} */ (`git-${m[1]}`), repository };
}
