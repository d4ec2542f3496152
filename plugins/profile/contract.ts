/** Shared by the profile page and its server half: limits, shapes and the image sniffing rule (no dependencies). */

/** Largest avatar accepted, in bytes (1 MB; one byte more is refused). */
export const AVATAR_MAX_BYTES = 1024 * 1024;

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

/** The two languages a user can choose. */
export type ProfileLanguage = 'zh_CN' | 'en_US';

/** Answer of `GET /users/ajax/v1/my/attributes:bind`: what the account has, so the page asks for the old password only when there is one. */
export interface BindAttributes {
  has_password: boolean;
  email: string | null;
  email_verified: boolean;
}

/** Answer of the e-mail calls: the address state after the change, and when the next mail may be sent. */
export interface EmailState {
  email: string | null;
  email_verified: boolean;
  /** Epoch ms from which a resend is allowed (null: no mail pending). */
  resend_available_at: number | null;
  /** Server time of the answer, so the countdown does not depend on the browser's clock. */
  server_time: number;
}

/** Minimum time between two activation mails to one user. */
export const EMAIL_RESEND_INTERVAL_MS = 60 * 1000;

/** How long an activation link stays valid. */
export const EMAIL_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
