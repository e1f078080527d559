import { AppError } from '../core/errors';
import { fieldsOf } from './hubtel-ussd';

/**
 * An SMS to the service's number, as Hubtel's two-way messaging pushes it to the campaign's callback URL
 * (https://help.hubtel.com/support/solutions/articles/44001760236-receive-sms-api, docs/ussd-sms.md): the sender in
 * `From`, our number in `To`, the text in `Message` (older SMSGH pushes name it `Content` or `Fulltext`). Read from the
 * query (a GET push) or the JSON body, field names in any letter case.
 */
export interface InboundSms {
  from: string;
  to: string;
  text: string;
}

export type SmsCommand = { kind: 'check'; query: string } | { kind: 'stop' } | { kind: 'start' } | { kind: 'help' };

export function readInboundSms(query: unknown, body: unknown): InboundSms {
  const f = new Map([
    ...(query && typeof query === 'object' ? fieldsOf(query) : []),
    ...(body && typeof body === 'object' ? fieldsOf(body) : []),
  ]);
  const from = (f.get('from') ?? '').replace(/[\s-]/g, '');
  if (!/^\+?\d{6,15}$/.test(from))
    throw new AppError('VALIDATION_FAILED', "From must be the sender's phone number (233246912184)", {
      errors: [{ field: 'From', message: 'must be a phone number of 6 to 15 digits' }],
    });
  const text = f.get('message') ?? f.get('content') ?? f.get('fulltext') ?? f.get('text') ?? '';
  return { from, to: f.get('to') ?? '', text };
}

/** What a text asks: CHECK and a plate or code, STOP, START, HELP (any case); anything else is answered with HELP. */
export function smsCommand(text: string): SmsCommand {
  const [word = '', ...rest] = text.trim().split(/\s+/);
  switch (word.toUpperCase()) {
    case 'CHECK':
      return rest.length > 0 ? { kind: 'check', query: rest.join(' ') } : { kind: 'help' };
    case 'STOP':
      return { kind: 'stop' };
    case 'START':
      return { kind: 'start' };
    default:
      return { kind: 'help' };
  }
}
