import type { ErrorCode } from '../errors';

/** RFC 9457 problem details: the one error body of the API. */
export interface ProblemField {
  field: string;
  message: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code?: ErrorCode;
  instance?: string;
  errors?: ProblemField[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function problem(status: number, detail: string, extra: Partial<Problem> = {}): Problem {
  const code = extra.code;
  return {
    type: code ? `urn:transport:problem:${code.toLowerCase().replace(/_/g, '-')}` : 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    ...extra,
  };
}
