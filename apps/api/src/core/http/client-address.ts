import ipaddr from 'ipaddr.js';

/**
 * The key per-address limits count a client under: an IPv4 address as it is (an IPv4-mapped IPv6 address as its
 * IPv4), and an IPv6 address by its /64 network. One subscriber is handed a whole /64 and picks addresses in it at
 * will, so counting single IPv6 addresses would give them 2^64 fresh budgets. (Express's `req.ip`, chosen by
 * TRUST_PROXY, is what the callers pass.)
 */
export function clientAddressKey(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
