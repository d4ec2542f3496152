import { describe, expect, it } from 'vitest';
import { downloadAction, parseBasic, reportedAddress } from './downloads';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('what the front door reports of a download', () => {
  it('reads Basic credentials; the password may hold colons, the username may not be empty', () => {
    expect(parseBasic(`Basic ${b64('alice:pa:ss')}`)).toEqual({ username: 'alice', password: 'pa:ss' });
    expect(parseBasic(`basic  ${b64('alice:')}`)).toEqual({ username: 'alice', password: '' });
    for (const bad of [undefined, '', 'Bearer abc', `Basic ${b64(':x')}`, `Basic ${b64('nocolon')}`, 'Basic a b'])
      expect(parseBasic(bad)).toBeNull();
    expect(parseBasic(`Basic ${b64(`alice:${'x'.repeat(2000)}`)}`)).toBeNull();
  });

  it('names the action by the method, without the query', () => {
    expect(downloadAction('GET', '/npm/a.tgz?sig=secret')).toBe('download /npm/a.tgz');
    expect(downloadAction('HEAD', '/m/a.pom')).toBe('download /m/a.pom');
    expect(downloadAction('PUT', '/m/a.jar')).toBe('upload /m/a.jar');
    expect(downloadAction('DELETE', '/m/a.jar')).toBe('delete /m/a.jar');
  });

  it("takes the reported address only when it is one, else the caller's", () => {
    expect(reportedAddress(' 2001:db8::1 ', '127.0.0.1')).toBe('2001:db8::1');
    expect(reportedAddress('unknown', '127.0.0.1')).toBe('127.0.0.1');
    expect(reportedAddress(undefined, '127.0.0.1')).toBe('127.0.0.1');
  });
});
