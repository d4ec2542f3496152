/**
 * Limits of the profile slice and its avatar content rule, used by its contract, its service and its
 * page (no imports, no TypeBox: safe in any bundle). The code mailed to the current address: schemas/email-code.ts.
 */

/** Largest avatar accepted, in bytes (1 MB; one byte more is refused). */
export const AVATAR_MAX_BYTES = 1024 * 1024;
/**
 * Most pixels (width × height × frames) an avatar may have; told from the image header and refused before any
 * decoding (4 megapixels, e.g. 2048 × 2048; the stored avatar is at most 1024 × 1024 anyway).
 */
export const AVATAR_MAX_PIXELS = 2048 * 2048;
/** Avatar uploads one user may make per window (answers included, refused ones too). */
export const AVATAR_UPLOADS_PER_USER = 10;
/** Avatar uploads one client address (IPv6: its network) may make per window, all its users together. */
export const AVATAR_UPLOADS_PER_ADDRESS = 30;
/** The window of the two upload limits. */
export const AVATAR_UPLOAD_WINDOW_MS = 10 * 60 * 1000;
/** How long an upload may wait to be set as the avatar before housekeeping removes it. */
export const AVATAR_PENDING_TTL_MS = 60 * 60 * 1000;
/** Longest avatar URL the service accepts when one is set. */
export const AVATAR_URL_MAX = 200;
/** Longest display name. */
export const PROFILE_NAME_MAX = 200;
/** Longest e-mail a request may carry (the service then applies the 254-character address rule). */
export const EMAIL_INPUT_MAX = 320;
/** Longest activation token a request may carry. */
export const EMAIL_TOKEN_INPUT_MAX = 128;
/** Minimum time between two activation mails to one user. */
export const EMAIL_RESEND_INTERVAL_MS = 60 * 1000;
/** How long an e-mail change code stays valid. */
export const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
/** How long an activation link stays valid. */
export const EMAIL_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

// ——— avatar content rule ———

/** Image kinds an avatar may be, told by content. */
export type AvatarKind = 'png' | 'jpg' | 'gif';

/** Content types of the accepted kinds, for serving and for the file picker. */
export const AVATAR_CONTENT_TYPES: Record<AvatarKind, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
};

/** Bytes needed by `sniffImageKind`. */
export const SNIFF_BYTES = 8;

/** The image kind by magic bytes (never by name or declared type); null for anything else (SVG, WebP, text…). */
export function sniffImageKind(head: Uint8Array): AvatarKind | null {
  const b = (i: number) => head[i];
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b(i) === v)) return 'png';
  if (head.length >= 3 && b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpg';
  if (head.length >= 6 && b(0) === 0x47 && b(1) === 0x49 && b(2) === 0x46 && b(3) === 0x38) {
    if ((b(4) === 0x37 || b(4) === 0x39) && b(5) === 0x61) return 'gif';
  }
  return null;
}
