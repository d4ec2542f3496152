import { parse } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { plainText } from './plain-text';

describe('plainText', () => {
  it('answers a source message as it is and a compiled one as its text', () => {
    expect(plainText('系统异常，请重试')).toBe('系统异常，请重试');
    expect(plainText(parse('System exception, please try again'))).toBe('System exception, please try again');
    expect(plainText([])).toBe('');
  });
});
