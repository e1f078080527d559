import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { AppConfig } from '../config';
import { AppError } from '../core/errors';
import { sameSecret } from '../core/platform/secrets';
import { APP_CONFIG } from '../core/tokens';

/** Whether `ip` falls in one of the CIDR ranges (an IPv4-mapped IPv6 address is read as its IPv4). */
function inRanges(ip: string | undefined, ranges: readonly string[]): boolean {
  if (!ip || !ipaddr.isValid(ip)) return false;
  const address = ipaddr.process(ip);
  return ranges.some((range) => {
    const [net, bits] = ipaddr.parseCIDR(range);
    return net.kind() === address.kind() && address.match(net, bits);
  });
}

const LOOPBACK = ['127.0.0.0/8', '::1/128'];

/**
 * Who may post to the USSD and inbound SMS routes (docs/ussd-sms.md): with HUBTEL_INBOUND_PASSWORD set, requests that
 * carry it as Basic credentials (and, with HUBTEL_INBOUND_ADDRESSES, come from those addresses); without it, the demo:
 * loopback only, and never in production. A refusal is a 401 (credentials) or 403 (address) problem, before anything
 * is read or counted.
 */
@Injectable()
export class HubtelInboundGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const { password, username, allowedAddresses } = this.config.hubtel;
    if (!password) {
      if (!this.config.production && inRanges(req.ip, LOOPBACK)) return true;
      throw new AppError(
        'UNAUTHORIZED',
        'Hubtel inbound requests are not configured (HUBTEL_INBOUND_PASSWORD); without it only loopback is served, outside production',
      );
    }
    if (!this.credentialsMatch(req.headers.authorization, username, password))
      throw new AppError('UNAUTHORIZED', 'Hubtel inbound requests need the configured Basic credentials');
    if (allowedAddresses.length > 0 && !inRanges(req.ip, allowedAddresses))
      throw new AppError('FORBIDDEN', 'This address may not send Hubtel inbound requests (HUBTEL_INBOUND_ADDRESSES)');
    return true;
  }

  private credentialsMatch(header: string | undefined, username: string, password: string): boolean {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    if (!match) return false;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    // Both compared in full whatever the first says, in constant time.
    const user = sameSecret(decoded.slice(0, decoded.indexOf(':')), username);
    const pass = sameSecret(decoded.slice(decoded.indexOf(':') + 1), password);
    return decoded.includes(':') && user && pass;
  }
}
