import { AppError } from '../core/errors';

/**
 * Hubtel Programmable Services' wire format (https://developers.hubtel.com/docs/api-reference-prog-services, "API
 * Reference - Prog Services"; docs/ussd-sms.md): each step of a session is POSTed as JSON with `Type` (initiation,
 * response, release, timeout), `Message`, `ServiceCode`, `Operator`, `ClientState`, `Mobile`, `SessionId`,
 * `Sequence`; the answer is the next screen. Hubtel's samples write "Sequence":"1" and the reference spells a field
 * "serviceCode": field names are read in any letter case, values in any letter case, numbers as strings or numbers.
 */
export const USSD_REQUEST_TYPES = ['initiation', 'response', 'release', 'timeout'] as const;
export type UssdRequestType = (typeof USSD_REQUEST_TYPES)[number];

export interface UssdRequest {
  type: UssdRequestType;
  message: string;
  sessionId: string;
  mobile: string;
  clientState: string;
  sequence?: number;
  serviceCode: string;
  operator: string;
}

/** The answer: `response` shows a screen and waits for input, `release` shows the last one and ends the session. */
export interface UssdResponse {
  SessionId: string;
  Type: 'response' | 'release';
  Message: string;
  Label: string;
  ClientState: string;
  DataType: 'input' | 'display';
  FieldType: 'text' | '';
}

/** A body's fields by lower-cased name; strings and numbers as trimmed strings, anything else refused. */
export function fieldsOf(body: unknown): Map<string, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('VALIDATION_FAILED', 'The body must be a JSON object (Hubtel Programmable Services request)');
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number') throw invalid(name, 'must be a string or a number');
    const text = String(value);
    if (text.length > 500) throw invalid(name, 'must be at most 500 characters');
    fields.set(name.toLowerCase(), text.trim());
  }
  return fields;
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${field} ${message}`, { errors: [{ field, message }] });
}

export function readUssdRequest(body: unknown): UssdRequest {
  const f = fieldsOf(body);
  const type = (f.get('type') ?? '').toLowerCase();
  if (!(USSD_REQUEST_TYPES as readonly string[]).includes(type))
    throw invalid('Type', `must be one of ${USSD_REQUEST_TYPES.join(', ')}`);
  const sessionId = f.get('sessionid') ?? '';
  if (!/^[\w-]{1,100}$/.test(sessionId)) throw invalid('SessionId', 'must be 1 to 100 letters, digits, - or _');
  const mobile = (f.get('mobile') ?? '').replace(/^\+/, '');
  if (!/^\d{6,15}$/.test(mobile)) throw invalid('Mobile', 'must be a phone number of 6 to 15 digits (233246912184)');
  const sequenceText = f.get('sequence');
  const sequence = sequenceText === undefined || sequenceText === '' ? undefined : Number(sequenceText);
  if (sequence !== undefined && !(Number.isInteger(sequence) && sequence >= 0))
    throw invalid('Sequence', 'must be a whole number');
  return {
    type: type as UssdRequestType,
    message: f.get('message') ?? '',
    sessionId,
    mobile,
    clientState: f.get('clientstate') ?? '',
    sequence,
    serviceCode: f.get('servicecode') ?? '',
    operator: (f.get('operator') ?? '').toLowerCase(),
  };
}
