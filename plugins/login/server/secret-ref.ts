import fs from 'node:fs';

/**
 * Secrets of sign-in sources (a directory's bind password, an OAuth client secret) are never stored: the admin
 * names where they are, `env:NAME` or `file:/absolute/path`, and the service reads them when it needs them. So
 * neither the database, `show-directory` nor a log line ever holds one.
 */

/** Longest secret accepted from a file or a variable. */
export const SECRET_MAX_BYTES = 4096;

/** A reference from the CLI's `--X-file PATH` / `--X-env NAME`, or the problem with it (naming the option). */
export function secretRefFrom(
  option: string,
  file: string | undefined,
  env: string | undefined,
): { ref: string } | { problem: string } {
  if (file && env) return { problem: `give --${option}-file or --${option}-env, not both` };
  if (!file && !env) return { problem: `--${option}-file PATH or --${option}-env NAME is required` };
  const ref = file ? `file:${file}` : `env:${env}`;
  if (env && !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(env))
    return { problem: `--${option}-env must be an environment variable name, got "${env}"` };
  if (file && !file.startsWith('/')) return { problem: `--${option}-file must be an absolute path, got "${file}"` };
  const read = readSecret(ref);
  if ('problem' in read) return { problem: `--${option}-${file ? 'file' : 'env'}: ${read.problem}` };
  return { ref };
}

/** The secret a reference points to now, or why it cannot be read (never the secret in the message). */
export function readSecret(ref: string): { secret: string } | { problem: string } {
  if (ref.startsWith('env:')) {
    const name = ref.slice(4);
    const v = process.env[name];
    if (v === undefined || v === '') return { problem: `environment variable ${name} is not set` };
    if (Buffer.byteLength(v) > SECRET_MAX_BYTES) return { problem: `environment variable ${name} is too long` };
    return { secret: v };
  }
  if (ref.startsWith('file:')) {
    const file = ref.slice(5);
    let text: string;
    try {
      const st = fs.statSync(file);
      if (!st.isFile()) return { problem: `${file} is not a file` };
      if (st.size > SECRET_MAX_BYTES) return { problem: `${file} is larger than ${SECRET_MAX_BYTES} bytes` };
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      return { problem: `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    // One trailing newline (from `echo … > file`) is not part of the secret.
    const secret = text.replace(/\r?\n$/, '');
    if (!secret) return { problem: `${file} is empty` };
    return { secret };
  }
  return { problem: 'the secret reference is neither env:NAME nor file:PATH' };
}

/** A reference as the CLI may print it (where the secret is, not what). */
export function describeSecretRef(ref: string): string {
  return ref.startsWith('env:') ? `environment variable ${ref.slice(4)}` : `file ${ref.slice(5)}`;
}
