import Bowser from 'bowser';
import type { BrowserInfo } from '../../../server/events';

/**
 * A browser from its User-Agent, as the history names it: the name, the major version and the system, each null
 * when the User-Agent does not tell it. Stands in for the core's `describeBrowser` (server/auth/user-agent.ts, the
 * login slice's description moved to the core) until that file is in; then the history imports it from there.
 */
export function describeBrowser(userAgent: string): { info: BrowserInfo } {
  const parsed = Bowser.parse(userAgent.slice(0, 512));
  // Bowser answers '' (not undefined) for what it does not recognise (curl, scripts).
  return {
    info: {
      name: parsed.browser.name || null,
      version: parsed.browser.version?.split('.')[0] || null,
      os: parsed.os.name || null,
    },
  };
}
