import { describe, expect, it } from 'vitest';
import { SECOND_FACTOR_GRACE_DAYS_MAX } from '../../schemas/second-factor-limits';
import { AccountError } from './accounts';
import {
  addressInCidrs,
  parseCidr,
  parseExpiryDate,
  parseIpWhitelist,
  policyDenial,
  parseGraceDays,
  type OrgAccess,
} from './organizations';

describe('CIDR parsing', () => {
  it('canonicalises IPv4, IPv6, bare addresses and IPv4-mapped IPv6 ranges', () => {
    const cidr = (e: string) => {
      const p = parseCidr(e);
      return p.ok ? p.cidr : `refused: ${p.reason}`;
    };
    expect(cidr('10.0.0.0/8')).toBe('10.0.0.0/8');
    expect(cidr(' 10.1.2.3 ')).toBe('10.1.2.3/32');
    expect(cidr('0.0.0.0/0')).toBe('0.0.0.0/0');
    expect(cidr('2001:DB8:0:0::/32')).toBe('2001:db8::/32');
    expect(cidr('2001:db8::1')).toBe('2001:db8::1/128');
    expect(cidr('::/0')).toBe('::/0');
    expect(cidr('::ffff:10.1.2.0/120')).toBe('10.1.2.0/24');
    expect(cidr('::ffff:0:0/96')).toBe('0.0.0.0/0');
  });

  it('refuses what is not exactly a range, saying why', () => {
    const reason = (e: string) => {
      const p = parseCidr(e);
      return p.ok ? 'accepted' : p.reason;
    };
    expect(reason('10.0.0.0/33')).toMatch(/prefix length must be 0 to 32/);
    expect(reason('2001:db8::/129')).toMatch(/0 to 128/);
    expect(reason('10.0.0.0/-1')).toMatch(/prefix/);
    expect(reason('10.0.0.0/8/8')).toMatch(/prefix/);
    expect(reason('10.0.0.0/')).toMatch(/prefix/);
    expect(reason('300.1.1.1/8')).toMatch(/not an IPv4 or IPv6 address/);
    expect(reason('10.1/16')).toMatch(/not an IPv4 or IPv6 address/);
    expect(reason('0x0a.0.0.1')).toMatch(/not an IPv4 or IPv6 address/);
    expect(reason('example.com')).toMatch(/not an IPv4 or IPv6 address/);
    expect(reason('fe80::1%eth0/64')).toMatch(/zone/);
    expect(reason('10.1.2.3/8')).toMatch(/host bits set \(the network is 10\.0\.0\.0\/8\)/);
    expect(reason('2001:db8::1/32')).toMatch(/2001:db8::\/32/);
  });

  it('parses a whole list, or refuses it naming every bad entry', () => {
    expect(parseIpWhitelist('')).toEqual([]);
    expect(parseIpWhitelist(' , ')).toEqual([]);
    expect(parseIpWhitelist('10.0.0.0/8, 2001:db8::/32\n10.0.0.0/8')).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    expect(() => parseIpWhitelist('10.0.0.0/8,10.0.0.0/33,nope')).toThrow(AccountError);
    expect(() => parseIpWhitelist('10.0.0.0/8,10.0.0.0/33,nope')).toThrow(
      /malformed CIDR entries "10\.0\.0\.0\/33" \(.*\), "nope" \(.*\); nothing was changed/,
    );
  });
});

describe('address matching', () => {
  it('matches by family, IPv4-mapped clients counting as IPv4', () => {
    expect(addressInCidrs('10.255.0.1', ['10.0.0.0/8'])).toBe(true);
    expect(addressInCidrs('11.0.0.1', ['10.0.0.0/8'])).toBe(false);
    expect(addressInCidrs('::ffff:10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(addressInCidrs('10.1.2.3', ['::ffff:10.1.2.0/120'])).toBe(true);
    expect(addressInCidrs('203.0.113.9', ['0.0.0.0/0'])).toBe(true);
    expect(addressInCidrs('2001:db8::1', ['0.0.0.0/0'])).toBe(false);
    expect(addressInCidrs('2001:db8::1', ['::/0'])).toBe(true);
    expect(addressInCidrs('203.0.113.9', ['::/0'])).toBe(false);
    expect(addressInCidrs('10.1.2.3', ['10.1.2.3/32'])).toBe(true);
    expect(addressInCidrs('10.1.2.4', ['10.1.2.3/32'])).toBe(false);
    expect(addressInCidrs('2001:db8::1', ['2001:db8::1/128'])).toBe(true);
    expect(addressInCidrs('2001:db8::2', ['2001:db8::1/128'])).toBe(false);
    expect(addressInCidrs('not an address', ['0.0.0.0/0', '::/0'])).toBe(false);
  });
});

describe('policies', () => {
  const access = (over: Partial<OrgAccess>): OrgAccess => ({
    id: 'o',
    name: 'O',
    logo: null,
    role: 'member',
    ipWhitelist: null,
    licenceExpiresAt: null,
    orderExpiresAt: null,
    secondFactorDeadline: null,
    ...over,
  });

  it('reads --expires as the last valid day (UTC), or none', () => {
    expect(parseExpiryDate('2026-01-31')).toBe(Date.UTC(2026, 1, 1));
    expect(parseExpiryDate('none')).toBeNull();
    expect(parseExpiryDate('')).toBeNull();
    for (const bad of ['2026-02-30', '2026-13-01', '31/01/2026', 'tomorrow']) {
      expect(() => parseExpiryDate(bad)).toThrow(/is not a date: use YYYY-MM-DD/);
    }
  });

  it('checks the whitelist, then the licence, then the order', () => {
    const now = Date.UTC(2026, 0, 1);
    const all = access({ ipWhitelist: '["10.0.0.0/8"]', licenceExpiresAt: now, orderExpiresAt: now });
    expect(policyDenial(all, '192.168.0.1', now)).toBe('OrganizationIpRestricted');
    expect(policyDenial(all, '10.0.0.1', now)).toBe('OrganizationLicenceExpired');
    expect(policyDenial({ ...all, licenceExpiresAt: now + 1 }, '10.0.0.1', now)).toBe('OrganizationOrderExpired');
    expect(policyDenial({ ...all, licenceExpiresAt: null, orderExpiresAt: now + 1 }, '10.0.0.1', now)).toBeNull();
    expect(policyDenial(access({ ipWhitelist: '[]' }), '192.168.0.1', now)).toBeNull();
    // A damaged stored list admits nobody rather than everybody.
    expect(policyDenial(access({ ipWhitelist: 'not json' }), '10.0.0.1', now)).toBe('OrganizationIpRestricted');
  });

  it('refuses a member without a second factor from the end of the grace, after every other policy', () => {
    const now = Date.UTC(2026, 0, 1);
    const pending = access({ secondFactorDeadline: now + 1 });
    expect(policyDenial(pending, '10.0.0.1', now)).toBeNull();
    expect(policyDenial(pending, '10.0.0.1', now + 1)).toBe('OrganizationSecondFactorRequired');
    // Last: a member is told to enrol only when nothing else stands in the way.
    const all = access({ ipWhitelist: '["10.0.0.0/8"]', orderExpiresAt: now, secondFactorDeadline: now });
    expect(policyDenial(all, '192.168.0.1', now)).toBe('OrganizationIpRestricted');
    expect(policyDenial(all, '10.0.0.1', now)).toBe('OrganizationOrderExpired');
    expect(policyDenial({ ...all, orderExpiresAt: null }, '10.0.0.1', now)).toBe('OrganizationSecondFactorRequired');
  });

  it('reads --grace-days as whole days from 0 to the maximum', () => {
    expect(parseGraceDays(undefined)).toBe(0);
    expect(parseGraceDays(' 14 ')).toBe(14);
    expect(parseGraceDays(String(SECOND_FACTOR_GRACE_DAYS_MAX))).toBe(SECOND_FACTOR_GRACE_DAYS_MAX);
    expect(() => parseGraceDays(String(SECOND_FACTOR_GRACE_DAYS_MAX + 1))).toThrow(
      `the grace period must be a whole number of days from 0 to ${SECOND_FACTOR_GRACE_DAYS_MAX}`,
    );
    for (const bad of ['-1', '1.5', 'two', '', '1e3', '99999']) {
      expect(() => parseGraceDays(bad), bad).toThrow(/days/);
    }
  });
});
