import { describe, expect, it } from 'vitest';
import { normalizeText, textProblem } from './clean-text';

describe('the clean-text rule', () => {
  it('lets ordinary names through, in any script, with joiners inside', () => {
    for (const ok of ['Alice', '张三', 'Zoë Ünal', 'محمد', 'नमस्ते', 'family \u{1F469}\u200D\u{1F467}', 'a b'])
      expect([ok, textProblem(ok)]).toEqual([ok, null]);
  });

  it('refuses C0/C1 controls, DEL and line separators; a multiline text keeps its line feeds only', () => {
    for (const bad of ['a\nb', 'a\rb', 'a\tb', 'a\u0007', 'a\u007f', 'a\u0085', 'a\u009b', 'a\u2028', 'a\u2029'])
      expect([bad, textProblem(bad)]).toEqual([bad, 'control']);
    expect(textProblem('a\nb', { multiline: true })).toBeNull();
    expect(textProblem('a\tb', { multiline: true })).toBe('control');
    expect(normalizeText('a\r\nb\rc', { multiline: true })).toBe('a\nb\nc');
  });

  it('refuses bidi embeddings, overrides, isolates and marks', () => {
    for (const c of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'])
      expect(textProblem(`x${c}y`)).toBe('direction');
    for (const c of ['\u200e', '\u200f', '\u061c']) expect(textProblem(`x${c}y`)).toBe('direction');
  });

  it('refuses texts with nothing visible', () => {
    for (const bad of ['\u200b', '\u200c\u200d', '\u2060', '\ufeff', ' \u3000 ', '\u3164', '\u2800', '\ufe0f'])
      expect([bad, textProblem(bad)]).toEqual([bad, 'invisible']);
  });

  it('normalises to NFC', () => {
    expect(normalizeText('Cafe\u0301')).toBe('Caf\u00e9');
    expect(normalizeText('\u212b')).toBe('\u00c5');
  });
});
