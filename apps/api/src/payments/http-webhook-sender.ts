import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { WebhookSender } from '../core/ports';
import { hostOf, isAllowlisted, isGlobalUnicast } from './callback-url-policy';

/** Resolves a host name to its addresses (node:dns by default; tests pass a stub). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

export interface WebhookSenderOptions {
  timeoutMs: number;
  /** Development mode or allowlisted hosts and ports may resolve to private addresses. */
  allowPrivate: boolean;
  allowlist: ReadonlySet<string>;
  resolve?: Resolver;
}

/**
 * POSTs a notification with no redirects followed. Server-side request forgery is checked where it cannot be
 * dodged: on the address the socket connects to. The host name is resolved once, inside the connection's own
 * `lookup`, and only a global unicast answer is connected to; a name that pointed somewhere public when the URL was
 * checked and at 127.0.0.1 now (DNS rebinding) is refused before any connection.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly resolve: Resolver;

  constructor(private readonly options: WebhookSenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
  }

  send(url: string, headers: Record<string, string>, body: string): Promise<number> {
    const target = new URL(url);
    const host = hostOf(target);
    const trusted = this.options.allowPrivate || isAllowlisted(this.options.allowlist, target);
    if (!trusted && ipaddr.isValid(host) && !isGlobalUnicast(host))
      return Promise.reject(new Error(`refused: ${host} is not a public address`));
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<number>((resolve, reject) => {
      const req = request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          timeout: this.options.timeoutMs,
          lookup: trusted ? undefined : this.checkedLookup(host),
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** The connection's DNS lookup: resolve once, keep only global unicast addresses, connect to the first. */
  private checkedLookup(host: string): LookupFunction {
    return (_hostname, options, callback) => {
      this.resolve(host).then(
        (addresses) => {
          const usable = addresses.filter((a) => isGlobalUnicast(a.address));
          if (usable.length === 0) {
            callback(
              new Error(
                `refused: ${host} resolves to ${addresses.map((a) => a.address).join(', ') || 'nothing'}, not a public address`,
              ),
              '',
              4,
            );
            return;
          }
          if ((options as { all?: boolean }).all)
            (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
          else callback(null, usable[0].address, usable[0].family);
        },
        (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
      );
    };
  }
}
