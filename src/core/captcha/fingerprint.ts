import SHA256 from 'crypto-js/sha256';

/** The text drawn on the fingerprint canvas; glyph rendering differs across devices, which is the point. */
export const FINGERPRINT_TEXT = 'DevOps,umid <canvas> 1.0 😃';

/** The device facts a fingerprint may use; injectable so tests and non-browser runs control them. */
export interface FingerprintSource {
  /** Creates a canvas; absent or returning null means canvas is unavailable. */
  createCanvas?: () => HTMLCanvasElement | null;
  /** Fallback fact when no canvas drawing is possible: the browser's user agent. */
  userAgent?: string;
  /** Fallback fact: preferred language. */
  language?: string;
  /** Fallback fact: OS platform. */
  platform?: string;
  /** Fallback fact: screen as WxHxDepth. */
  screen?: string;
  /** Fallback fact: IANA timezone. */
  timezone?: string;
}

function browserSource(): FingerprintSource {
  const hasDoc = typeof document !== 'undefined';
  const nav = typeof navigator !== 'undefined' ? navigator : undefined;
  let timezone = '';
  try {
    timezone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    timezone = '';
  }
  return {
    createCanvas: hasDoc ? () => document.createElement('canvas') : undefined,
    userAgent: nav?.userAgent ?? '',
    language: nav?.language ?? '',
    platform: nav?.platform ?? '',
    screen: typeof screen !== 'undefined' ? `${screen.width}x${screen.height}x${screen.colorDepth}` : '',
    timezone,
  };
}

/** Draws the fingerprint picture and returns its data URL, or null when canvas drawing is unavailable. */
export function drawFingerprintCanvas(createCanvas: FingerprintSource['createCanvas']): string | null {
  try {
    const canvas = createCanvas?.();
    if (!canvas) return null;
    canvas.width = 240;
    canvas.height = 60;
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.textBaseline = 'top';
    ctx.font = "14px 'Arial'";
    ctx.fillStyle = '#f60';
    ctx.fillRect(125, 1, 62, 20);
    ctx.fillStyle = '#069';
    ctx.fillText(FINGERPRINT_TEXT, 2, 15);
    ctx.fillStyle = 'rgba(102, 204, 0, 0.7)';
    ctx.fillText(FINGERPRINT_TEXT, 4, 17);
    const url = canvas.toDataURL();
    return url && url !== 'data:,' ? url : null;
  } catch {
    return null;
  }
}

/** The `umid` token: SHA-256 (hex) of the canvas drawing, or of device facts when canvas is unavailable. */
export function computeUmidToken(source: FingerprintSource = browserSource()): string {
  const drawing = drawFingerprintCanvas(source.createCanvas);
  const material =
    drawing !== null
      ? `canvas:${drawing}`
      : `fallback:${[source.userAgent, source.language, source.platform, source.screen, source.timezone].map((v) => v ?? '').join('|')}`;
  return SHA256(material).toString();
}

let cached: string | undefined;

/** The device's token, computed once per page; sent with password changes and sign-in. */
export function getUmidToken(): string {
  cached ??= computeUmidToken();
  return cached;
}
