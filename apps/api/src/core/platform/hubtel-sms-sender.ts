import { AppError } from '../errors';
import type { MessageSender } from '../ports';

export interface SmsGatewayConfig {
  /** e.g. https://sms.hubtel.com/v1/messages/send */
  url: string;
  clientId: string;
  clientSecret: string;
  /** The sender name the phone shows (registered with the gateway). */
  senderId: string;
  timeoutMs: number;
}

/**
 * Text messages through Hubtel's SMS API (a Ghanaian gateway): `POST {url}` with Basic authentication and
 * `{ From, To, Content }`; an answer with `Status` "0" (or HTTP 2xx without a status) is accepted by the gateway.
 */
export class HubtelSmsSender implements MessageSender {
  private readonly auth: string;

  constructor(private readonly config: SmsGatewayConfig) {
    this.auth = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`;
  }

  async send(message: { to: string; text: string }): Promise<void> {
    let status: number;
    let body: { Status?: unknown; status?: unknown; Message?: unknown } | undefined;
    try {
      const response = await fetch(this.config.url, {
        method: 'POST',
        headers: { authorization: this.auth, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ From: this.config.senderId, To: message.to.replace(/^\+/, ''), Content: message.text }),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      status = response.status;
      body = (await response.json().catch(() => undefined)) as typeof body;
    } catch (error) {
      throw new AppError('MESSAGE_NOT_SENT', `The SMS gateway could not be reached (${(error as Error).message})`);
    }
    const code = body?.Status ?? body?.status;
    if (status < 200 || status >= 300 || (code !== undefined && String(code) !== '0')) {
      throw new AppError(
        'MESSAGE_NOT_SENT',
        `The SMS gateway refused the message (HTTP ${status}, status ${String(code)})`,
      );
    }
  }
}
