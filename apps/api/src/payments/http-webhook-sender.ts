import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { WebhookSender } from '../core/ports';
import { isPrivateAddress } from './callback-url-policy';

export interface WebhookSenderOptions {
  timeoutMs: number;
  /** Development mode or allowlisted hosts may resolve to private addresses. */
  allowPrivate: boolean;
  allowlist: ReadonlySet<string>;
}

/** POSTs a notification with fetch, no redirects followed; host names are resolved and checked first (SSRF). */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly options: WebhookSenderOptions) {}

  async send(url: string, headers: Record<string, string>, body: string): Promise<number> {
    await this.checkDestination(url);
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(this.options.timeoutMs),
      headers,
      body,
    });
    await response.body?.cancel();
    return response.status;
  }

  private async checkDestination(raw: string): Promise<void> {
    const host = new URL(raw).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (this.options.allowPrivate || this.options.allowlist.has(host)) return;
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
    if (addresses.some(isPrivateAddress)) throw new Error(`refused: ${host} resolves to a private address`);
  }
}
