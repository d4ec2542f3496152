import { describe, expect, it } from 'vitest';
import { hasStrings, isListOf, isRecord, isStringOrNull } from './shape';

describe('shape checks', () => {
  it('a record is a plain object, not null nor an array', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord('x')).toBe(false);
  });
  it('string-or-null refuses undefined and numbers', () => {
    expect(isStringOrNull(null)).toBe(true);
    expect(isStringOrNull('2026-01-01')).toBe(true);
    expect(isStringOrNull(undefined)).toBe(false);
    expect(isStringOrNull(0)).toBe(false);
  });
  it('hasStrings wants every named field a string', () => {
    expect(hasStrings({ a: 'x', b: 'y' }, ['a', 'b'])).toBe(true);
    expect(hasStrings({ a: 'x', b: 1 }, ['a', 'b'])).toBe(false);
    expect(hasStrings({ a: 'x' }, ['a', 'b'])).toBe(false);
  });
  it('isListOf wants an array of records that each pass', () => {
    const named = (r: Record<string, unknown>) => typeof r.name === 'string';
    expect(isListOf([], named)).toBe(true);
    expect(isListOf([{ name: 'a' }], named)).toBe(true);
    expect(isListOf([{ name: 'a' }, null], named)).toBe(false);
    expect(isListOf([{ name: 1 }], named)).toBe(false);
    expect(isListOf({ name: 'a' }, named)).toBe(false);
  });
});
