import { createApiClient, nextCursor, type components, type Problem } from '@transport/api-client';

// The dashboard talks to the API through the generated client only (the same OpenAPI contract as every other client),
// same origin, with the session cookie the browser keeps and the session's CSRF token on every change.

export type Vehicle = components['schemas']['VehicleResponse'];
export type Driver = components['schemas']['DriverResponse'];
export type Session = components['schemas']['SessionResponse'];
export type AuditEntry = components['schemas']['AuditEntryResponse'];
export type ComplianceEntry = components['schemas']['ComplianceEntryResponse'];
export type AssemblyUser = components['schemas']['AssemblyUserResponse'];

/**
 * How long a request may wait for the service's answer to begin (its status and headers; a long body, once it flows,
 * is not cut): a change, then it is treated as not sent (the inspection goes to the phone's outbox, with its
 * idempotency key, so a change that did arrive is not made twice), and a read, then the screen says it failed and
 * offers to try again. On a weak signal a request can otherwise hang for the browser's own limit (minutes).
 */
export const ANSWER_TIMEOUT_MS = { change: 12_000, read: 15_000 } as const;
/** After this long without an answer a screen says the connection is slow (its progress shows at once). */
export const SLOW_AFTER_MS = 4_000;

/** fetch, abandoned when the answer has not begun within its time (an ApiProblem of status 0: no connection). */
function patientFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const stop = new AbortController();
  const wait =
    request.method === 'GET' || request.method === 'HEAD' ? ANSWER_TIMEOUT_MS.read : ANSWER_TIMEOUT_MS.change;
  const timer = setTimeout(() => stop.abort(new DOMException('No answer in time', 'TimeoutError')), wait);
  // The request's own signal too, where the browser can combine two (AbortSignal.any: Chrome 116, Safari 17.4).
  const signal = 'any' in AbortSignal ? AbortSignal.any([stop.signal, request.signal]) : stop.signal;
  return fetch(request, { signal }).finally(() => clearTimeout(timer));
}

export const api = createApiClient({ baseUrl: location.origin, fetch: patientFetch as typeof fetch });

let csrfToken: string | undefined;
let onSessionEnded: () => void = () => undefined;
/** When the page last sent a request (the session's activity as the server sees it). */
let lastRequestAt = 0;

export function useSession(session: Session | undefined, ended: () => void): void {
  csrfToken = session?.csrfToken;
  onSessionEnded = ended;
}

/** When the page last sent a request to the API (ms since the epoch). */
export const lastRequest = () => lastRequestAt;

api.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    lastRequestAt = Date.now();
    return request;
  },
  onResponse({ response }) {
    // A 401 anywhere but at the sign-in itself, while signed in: the session ended (idle, signed out elsewhere,
    // password reset). Before any sign-in a 401 only says nobody is signed in yet.
    if (response.status === 401 && csrfToken && !new URL(response.url).pathname.startsWith('/auth/sign-in'))
      onSessionEnded();
    return response;
  },
});

/**
 * The record as the user saw it: a change made meanwhile by someone else is refused (409), not overwritten. A session
 * reads records whole (the assembly view), revision included; the schema leaves `__v` optional only for the roles
 * whose view omits it, so a record without one is a fault, not a record to change blind.
 */
export const seen = (record: { _id: string; __v?: number }) => {
  if (record.__v === undefined) throw new Error(`The record ${record._id} came without its revision (__v)`);
  return { params: { path: { id: record._id }, header: { 'If-Match': String(record.__v) } } };
};

/** A refusal of the API, as its problem body says it (words for people, and the fields to fix). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem>,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
  }
}

/** The answer's data, or an ApiProblem with the API's own words. */
export async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiProblem(0, {});
  }
  if (result.error !== undefined || !result.response.ok) {
    throw new ApiProblem(result.response.status, (result.error ?? {}) as Partial<Problem>);
  }
  return result.data as T;
}

/** One page of a list, the total when asked for, and the cursor of the next page. */
export interface ListPage<T> {
  items: T[];
  total?: number;
  next?: string;
}

export async function page<T, D = T[]>(
  call: Promise<{ data?: D; error?: unknown; response: Response }>,
  items: (data: D) => T[] = (data) => data as unknown as T[],
): Promise<ListPage<T>> {
  const result = await call.catch(() => {
    throw new ApiProblem(0, {});
  });
  if (result.error !== undefined || !result.response.ok || result.data === undefined) {
    throw new ApiProblem(result.response.status, (result.error ?? {}) as Partial<Problem>);
  }
  const total = result.response.headers.get('X-Total-Count');
  return {
    items: items(result.data),
    total: total === null ? undefined : Number(total),
    next: nextCursor(result.response),
  };
}

/** The browser refused to open the certificate's window (a pop-up blocker): nothing was printed. */
export class PopUpBlocked extends Error {}

/**
 * Prints a vehicle's certificate: the explicit act (POST, with the session's CSRF token, audited as issued or
 * reprinted), its sheet shown in `sheet`, a window opened at the person's click (one opened after the answer would be
 * blocked as a pop-up), and the browser's print dialog opened on it. Viewing the certificate (GET) is only a preview.
 */
export async function printCertificate(id: string, size: 'a6' | 'a4', sheet: Window | null): Promise<void> {
  if (!sheet) throw new PopUpBlocked(); // before the POST: a print nobody can see is not made
  let html: string;
  try {
    html = await must(
      api.POST('/vehicles/{id}/certificate', {
        params: { path: { id }, query: { size } },
        parseAs: 'text',
      }) as Promise<{ data?: string; error?: unknown; response: Response }>,
    );
  } catch (refusal) {
    sheet.close();
    throw refusal;
  }
  sheet.document.open();
  sheet.document.write(html);
  sheet.document.close();
  sheet.focus();
  sheet.print();
}

/** The compliance list as the API's CSV (the whole list, `Accept: text/csv`), saved by the browser as a file. */
export async function downloadComplianceCsv(within: number): Promise<void> {
  const blob = await must(
    api.GET('/vehicles/compliance', {
      params: { query: { within } },
      headers: { Accept: 'text/csv' },
      parseAs: 'blob',
    }) as Promise<{ data?: Blob; error?: unknown; response: Response }>,
  );
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `compliance-within-${within}-days.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
