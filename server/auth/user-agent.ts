import Bowser from 'bowser';
import type { BrowserInfo } from '../events';

/** The longest User-Agent the service keeps or reads (a longer one is cut to this). */
export const USER_AGENT_MAX = 512;

/** A User-Agent header as the service keeps it: cut to `USER_AGENT_MAX`, null when absent or empty. */
export function keptUserAgent(userAgent: string | undefined | null): string | null {
  return userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null;
}

/**
 * A browser from its User-Agent: the parts a message or the security page names (rendered in the reader's language
 * later), and the identity that tells browsers apart (without the version, which changes with every update). Pure:
 * the login slice (new-device messages, the lockout's marks) and the security slice (sessions) both read it here.
 */
export function describeBrowser(userAgent: string | undefined | null): { info: BrowserInfo; identity: string } {
  const ua = (userAgent ?? '').slice(0, USER_AGENT_MAX);
  const parsed = ua ? Bowser.parse(ua) : undefined;
  // Bowser answers '' (not undefined) for what it does not recognise (curl, scripts).
  const name = parsed?.browser.name || null;
  const version = parsed?.browser.version?.split('.')[0] || null;
  const os = parsed?.os.name || null;
  return {
    info: { name, version, os },
    identity: ua ? `${name ?? ''}|${os ?? ''}|${parsed?.platform.type ?? ''}` : 'unknown',
  };
}
