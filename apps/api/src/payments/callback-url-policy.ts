import { isIP } from 'node:net';
import { DomainError } from '@transport/domain';

/**
 * Where merchants may ask us to send notifications. Outside development, loopback, private, link-local and
 * unspecified addresses are refused (no server-side request forgery into our own network), unless the host is on
 * the allowlist. Host names are checked again, after DNS resolution, when a notification is sent.
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
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (this.allowPrivate || this.allowlist.has(host)) return;
    if (
      host === 'localhost' ||
      host.endsWith('.localhost') ||
      host.endsWith('.local') ||
      host.endsWith('.internal') ||
      isPrivateAddress(host)
    ) {
      throw refuse('callBackUrl must not point at a loopback, private or link-local address');
    }
  }
}

function refuse(message: string): DomainError {
  return new DomainError('CALLBACK_URL_REFUSED', message, 'callBackUrl');
}

export function isPrivateAddress(host: string): boolean {
  const kind = isIP(host);
  if (kind === 4) {
    const [a, b] = host.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (kind === 6) {
    const h = host.toLowerCase();
    if (h === '::' || h === '::1') return true;
    if (h.startsWith('::ffff:')) {
      // IPv4-mapped: URL parsing writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
      const rest = h.slice(7);
      if (isIP(rest) === 4) return isPrivateAddress(rest);
      const [hi, lo] = rest.split(':').map((g) => parseInt(g, 16));
      return isPrivateAddress([hi >> 8, hi & 255, lo >> 8, lo & 255].join('.'));
    }
    return /^f[cd]/.test(h) || /^fe[89ab]/.test(h) || h.startsWith('ff');
  }
  return false;
}
