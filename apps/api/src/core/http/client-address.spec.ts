import { clientAddressKey } from './client-address';

describe('the key a client address is limited under', () => {
  it('keeps an IPv4 address, and the IPv4 inside an IPv4-mapped IPv6 address', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, so one subscriber cannot rotate through fresh addresses', () => {
    const a = clientAddressKey('2001:db8:abcd:12:1::1');
    expect(a).toBe('2001:db8:abcd:12::/64');
    expect(clientAddressKey('2001:db8:abcd:12:ffff:ffff:ffff:fffe')).toBe(a);
    expect(clientAddressKey('2001:db8:abcd:13::1')).not.toBe(a);
  });

  it('puts what is not an address under one key', () => {
    expect(clientAddressKey(undefined)).toBe('unknown');
    expect(clientAddressKey('not-an-address')).toBe('unknown');
  });
});
