import { describe, expect, it, vi } from 'vitest';
import SHA256 from 'crypto-js/sha256';
import { computeUmidToken, drawFingerprintCanvas, getUmidToken } from './fingerprint';

function fakeCanvas(dataUrl: string) {
  const ctx = { fillRect: vi.fn(), fillText: vi.fn(), textBaseline: '', font: '', fillStyle: '' };
  return {
    width: 0,
    height: 0,
    getContext: vi.fn(() => ctx),
    toDataURL: () => dataUrl,
    ctx,
  } as unknown as HTMLCanvasElement & { ctx: typeof ctx };
}

describe('umid fingerprint', () => {
  it('hashes the canvas drawing with SHA-256', () => {
    const canvas = fakeCanvas('data:image/png;base64,AAAA');
    const token = computeUmidToken({ createCanvas: () => canvas });
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(token).toBe(SHA256('canvas:data:image/png;base64,AAAA').toString());
    expect((canvas as unknown as { ctx: { fillText: ReturnType<typeof vi.fn> } }).ctx.fillText).toHaveBeenCalled();
  });

  it('differs between devices drawing differently and is stable on one device', () => {
    const a = computeUmidToken({ createCanvas: () => fakeCanvas('data:image/png;base64,AAAA') });
    const b = computeUmidToken({ createCanvas: () => fakeCanvas('data:image/png;base64,BBBB') });
    expect(a).not.toBe(b);
    expect(computeUmidToken({ createCanvas: () => fakeCanvas('data:image/png;base64,AAAA') })).toBe(a);
  });

  it('falls back to device facts when canvas is unavailable, blank or throws', () => {
    const facts = { userAgent: 'UA', language: 'zh-CN', platform: 'Linux', screen: '1x1x24', timezone: 'UTC' };
    const expected = SHA256('fallback:UA|zh-CN|Linux|1x1x24|UTC').toString();
    expect(computeUmidToken({ ...facts })).toBe(expected);
    expect(computeUmidToken({ ...facts, createCanvas: () => null })).toBe(expected);
    expect(computeUmidToken({ ...facts, createCanvas: () => fakeCanvas('data:,') })).toBe(expected);
    expect(
      computeUmidToken({
        ...facts,
        createCanvas: () => {
          throw new Error('blocked');
        },
      }),
    ).toBe(expected);
    expect(drawFingerprintCanvas(undefined)).toBeNull();
  });

  it('works in the test DOM (whatever its canvas support) and caches the token', () => {
    const t = getUmidToken();
    expect(t).toMatch(/^[0-9a-f]{64}$/);
    expect(getUmidToken()).toBe(t);
  });
});
