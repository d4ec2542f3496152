import { describe, expect, it } from 'vitest';
import { InexactNumber, parseProviderJson } from './provider-json';

describe('parseProviderJson', () => {
  it('keeps safe integers, strings and the rest of the answer as JSON.parse does', () => {
    const text =
      '{"a":9007199254740991,"b":-9007199254740991,"c":"9007199254740993","d":[0,-0,true,null],"e":{"f":"x\\"1e3"}}';
    expect(parseProviderJson(text)).toEqual(JSON.parse(text));
  });

  it('reads a number that is not a safe integer as written (its text), never rounded', () => {
    const v = parseProviderJson(
      '{"sub":9007199254740993,"n":[-9007199254740993,9.007199254740993e15,1.5,1e3,0.0],"s":"12345678901234567890"}',
    ) as { sub: unknown; n: unknown[]; s: unknown };
    expect(v.sub).toEqual(new InexactNumber('9007199254740993'));
    expect(v.n.map((x) => (x as InexactNumber).text)).toEqual([
      '-9007199254740993',
      '9.007199254740993e15',
      '1.5',
      '1e3',
      '0.0',
    ]);
    expect(v.s).toBe('12345678901234567890');
  });

  it('cannot be fooled by a string shaped like its marker, and refuses what JSON.parse refuses', () => {
    expect(parseProviderJson('{"sub":"\\u0000inexact-00:0","n":99999999999999999999}')).toEqual({
      sub: '\u0000inexact-00:0',
      n: new InexactNumber('99999999999999999999'),
    });
    for (const bad of ['{"a":01}', '{"a":1.}', '{"a":-}', '{"a":"x}', '99999999999999999999 1', '']) {
      expect(() => parseProviderJson(bad), bad).toThrow();
    }
  });

  it('drops __proto__ and constructor keys', () => {
    const v = parseProviderJson('{"__proto__":{"polluted":1},"constructor":{"prototype":{}},"sub":"a"}') as object;
    expect(v).toEqual({ sub: 'a' });
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });
});
