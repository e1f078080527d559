import ipaddr from 'ipaddr.js';
import { DomainError } from '@transport/domain';

/**
 * Whether an address is global unicast: reachable on the public internet and not one of the special ranges
 * (loopback, private, link-local, carrier-grade NAT, documentation and benchmarking ranges, multicast, NAT64 64:ff9b::/96,
 * 6to4, Teredo, ...). The ranges are ipaddr.js's, a maintained list of the IANA special-purpose registries; an
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isGlobalUnicast(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** The port a notification may be sent to outside development: https's own (written or implied). */
const WEB_PORTS = new Set(['', '443']);

/**
 * Where merchants may ask us to send notifications. Outside development, only https URLs on port 443 whose host
 * is a name or a global unicast address (no server-side request forgery into our own network), unless the host is on
 * the allowlist. Names are checked again, at connect time, on the address actually connected to (HttpWebhookSender).
 */
export class CallbackUrlPolicy {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly allowlist: ReadonlySet<string>,
  ) {}

  check(raw: string): void {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refuse('callBackUrl must be an absolute http or https URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('callBackUrl must use http or https');
    if (url.username || url.password) throw refuse('callBackUrl must not carry credentials');
    const host = hostOf(url);
    if (this.allowPrivate || this.allowlist.has(host)) return;
    // Notifications carry payment data and a signature worth replaying: only over TLS, outside development.
    if (url.protocol !== 'https:') throw refuse('callBackUrl must use https');
    if (!WEB_PORTS.has(url.port)) throw refuse('callBackUrl must use the standard port (443)');
    const internalName =
      host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal');
    if (internalName || (ipaddr.isValid(host) && !isGlobalUnicast(host))) {
      throw refuse('callBackUrl must not point at a loopback, private, link-local or reserved address');
    }
  }
}

/** The host of a URL as DNS and the allowlist see it: lower-case, IPv6 without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

function refuse(message: string): DomainError {
  return new DomainError('CALLBACK_URL_REFUSED', message, 'callBackUrl');
}
