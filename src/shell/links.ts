/** Addresses the shell links to, in one place so the header, notices and error pages agree. */

/** The organisation chooser; with `current`, it comes back there after a switch (else to the settings). */
export function switchOrganizationUrl(current?: string): string {
  const base = '/users/switch/organization';
  return current ? `${base}?nextUrl=${encodeURIComponent(current)}` : base;
}

/** The account service's logout address with the current page as next URL. */
export function logoutUrl(current: string): string {
  return `/users/logout?next=${encodeURIComponent(current)}`;
}

/** The current page as a path with its query and hash (what `next` URLs carry: followed on any deployment). */
export function currentPath(): string {
  if (typeof window === 'undefined') return '/';
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}
