import { describe, expect, it } from 'vitest';
import { clientNetwork } from './rate-limit';

describe('clientNetwork', () => {
  it('names the network an address counts by', () => {
    expect(clientNetwork('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:DB8:1:2::')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:2:3:4:5:6', 56)).toBe('2001:db8:1::/56');
    expect(clientNetwork('2001:db8:1:2:3:4:5:6', 128)).toBe('2001:db8:1:2:3:4:5:6/128');
    expect(clientNetwork('::1')).toBe('::/64');
    expect(clientNetwork('203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('not-an-address')).toBe('not-an-address');
  });
});
