import { AppError } from '../errors';

/**
 * How deep a JSON body may nest. The deepest request of the interface nests three levels (a trip's service); 32 leaves
 * room for anything a client means, while a body of 5,000 nested arrays (10 kB) would overflow the stack of the
 * recursive validation and transformation that follow.
 */
export const MAX_BODY_DEPTH = 32;

/** A lone UTF-16 surrogate: JSON can carry one (`"\ud800"`), but it is no character (validator.js throws on it). */
const LONE_SURROGATE = /\p{Cs}/u;

/** What is wrong with a string no value may hold, or undefined. */
function unholdable(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone surrogate (\\ud800-\\udfff unpaired)';
  return undefined;
}

/**
 * The first refusal a request's shape earns before any route sees it, or undefined. PostgreSQL's text cannot hold a
 * NUL character (it answers "invalid byte sequence"), so a NUL anywhere in the URL or in a body string is refused here,
 * naming the field, instead of failing in the database as a 500; so is a lone surrogate, which is not text at all.
 */
export function inputShapeProblem(url: string, body: unknown): AppError | undefined {
  if (/%00/.test(url)) {
    return new AppError('VALIDATION_FAILED', 'The URL contains a NUL character (%00), which no value may hold', {
      errors: [{ field: 'url', message: 'must not contain a NUL character' }],
    });
  }
  // Raw bytes (a photo: request-body.ts's RAW_BODY_ROUTES) are no text, and their route checks them.
  if (Buffer.isBuffer(body)) return undefined;
  if (typeof body === 'string') {
    const message = unholdable(body);
    return message
      ? new AppError(
          'BAD_BODY',
          `The request body ${message.replace('must not contain', 'contains')}, which no value may hold`,
        )
      : undefined;
  }
  // Iterative, so the walk itself cannot overflow the stack.
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path, depth } = next;
    if (typeof value === 'string') {
      const message = unholdable(value);
      if (message) {
        const field = path || 'body';
        return new AppError('VALIDATION_FAILED', `${field}: ${message}`, { errors: [{ field, message }] });
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      return new AppError('BAD_BODY', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`);
    }
    for (const [key, child] of Object.entries(value)) {
      const message = unholdable(key);
      if (message) {
        return new AppError('VALIDATION_FAILED', `A field name ${message.replace('must not contain', 'contains')}`, {
          errors: [{ field: path || 'body', message: `field names ${message}` }],
        });
      }
      const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}
