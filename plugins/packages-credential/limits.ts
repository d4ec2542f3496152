/** Limits of the artifact-repository credential slice (no imports: safe in any bundle). */

/** A new password is accepted this long after the reset (the page says 10 seconds). */
export const PACKAGES_PASSWORD_DELAY_MS = 10_000;
