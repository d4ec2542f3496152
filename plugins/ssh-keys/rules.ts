/** Longest paste the service accepts (the slice's limit, one definition). */
export { SSH_KEY_MAX_LENGTH } from './limits';

/**
 * A quick first check in the form (the service parses and decides): one line starting with an
 * accepted type. Saves a round trip for the most common mistake (ECDSA / DSA keys).
 */
export function looksSupported(value: string): boolean {
  const text = value.trim();
  if (/PRIVATE KEY/.test(text)) return true; // the service explains private keys precisely
  return /^(ssh-rsa|ssh-ed25519)\s/.test(text);
}
