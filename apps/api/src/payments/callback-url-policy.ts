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
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // ::/96, the IPv4-compatible form (deprecated by RFC 4291): ipaddr.js calls it unicast, but ::7f00:1 is 127.0.0.1
    // to some stacks. Nothing real is addressed so; refused whatever IPv4 it carries (:: and ::1 included).
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
    // NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16), Teredo and ::ffff:0:0:0/96 are special-purpose ranges
    // to ipaddr.js, so they are refused below with whatever IPv4 they embed; the IPv4-mapped form is judged as its
    // IPv4 address.
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/**
 * Whether a URL's host and port are on CALLBACK_URL_ALLOWLIST. An entry matches one host and one port exactly:
 * `host:port` (`[v6]:port` for IPv6), or a bare `host` for the scheme's default port (443 for https, 80 for http);
 * the same host on another port is not allowlisted.
 */
export function isAllowlisted(allowlist: ReadonlySet<string>, url: URL): boolean {
  const host = hostOf(url);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const entry of allowlist) {
    const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(entry.trim().toLowerCase());
    if (!match) continue;
    const entryHost = match[1] ?? match[2];
    const entryPort = match[3] ?? (url.protocol === 'https:' ? '443' : '80');
    if (entryHost === host && Number(entryPort) === Number(port)) return true;
  }
  return false;
}

/** The port a notification may be sent to outside development: https's own (written or implied). */
const WEB_PORTS = new Set(['', '443']);

/**
 * Where merchants may ask us to send notifications. Outside development, only https URLs on port 443 whose host
 * is a name or a global unicast address (no server-side request forgery into our own network), unless the host and
 * port are on the allowlist. Names are checked again, at connect time, on the address actually connected to (HttpWebhookSender).
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
    if (this.allowPrivate || isAllowlisted(this.allowlist, url)) return;
    // Each refusal names the rule that refused, and how to allow the receiver (a local one was told "must use https",
    // which would not have let it through).
    const allow =
      `; to allow this receiver, add it to the allow-list (CALLBACK_URL_ALLOWLIST=${allowlistEntry(url)}, ` +
      'comma-separated host:port entries)';
    const internalName =
      host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal');
    if (internalName || (ipaddr.isValid(host) && !isGlobalUnicast(host))) {
      throw refuse(
        `callBackUrl must not point at a loopback, private, link-local or reserved address (${host}) outside ` +
          `development${allow}, or run with NODE_ENV=development for local receivers`,
      );
    }
    // Notifications carry payment data and a signature worth replaying: only over TLS, outside development.
    if (url.protocol !== 'https:') throw refuse(`callBackUrl must use https outside development${allow}`);
    if (!WEB_PORTS.has(url.port))
      throw refuse(`callBackUrl must use the standard port (443) outside development${allow}`);
  }
}

/** The CALLBACK_URL_ALLOWLIST entry that allows this URL's host and port (a bare host means https's 443). */
function allowlistEntry(url: URL): string {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '' : '80');
  return port ? `${host}:${port}` : host;
}

/** The host of a URL as DNS and the allowlist see it: lower-case, IPv6 without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

function refuse(message: string): DomainError {
  return new DomainError('CALLBACK_URL_REFUSED', message, 'callBackUrl');
}
