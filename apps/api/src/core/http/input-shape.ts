import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';
import { sendProblem } from './problem.filter';

/**
 * How deep a JSON body may nest. The deepest request of the interface nests three levels (a trip's service); 32 leaves
 * room for anything a client means, while a body of 5,000 nested arrays (10 kB) would overflow the stack of the
 * recursive validation and transformation that follow.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * The first refusal a request's shape earns before any route sees it, or undefined. PostgreSQL's text cannot hold a
 * NUL character (it answers "invalid byte sequence"), so a NUL anywhere in the URL or in a body string is refused here,
 * naming the field, instead of failing in the database as a 500.
 */
export function inputShapeProblem(url: string, body: unknown): AppError | undefined {
  if (/%00/.test(url)) {
    return new AppError('VALIDATION_FAILED', 'The URL contains a NUL character (%00), which no value may hold', {
      errors: [{ field: 'url', message: 'must not contain a NUL character' }],
    });
  }
  if (typeof body === 'string') {
    return body.includes('\u0000')
      ? new AppError('BAD_BODY', 'The request body contains a NUL character, which no value may hold')
      : undefined;
  }
  // Iterative, so the walk itself cannot overflow the stack.
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path, depth } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) {
        const field = path || 'body';
        return new AppError('VALIDATION_FAILED', `${field}: must not contain a NUL character`, {
          errors: [{ field, message: 'must not contain a NUL character' }],
        });
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      return new AppError('BAD_BODY', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`);
    }
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) {
        return new AppError('VALIDATION_FAILED', 'A field name contains a NUL character', {
          errors: [{ field: path || 'body', message: 'field names must not contain a NUL character' }],
        });
      }
      const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}

/** Express middleware (after the body parsers): answers inputShapeProblem's refusal as a problem, or goes on. */
export function refuseMalformedInput(request: Request, response: Response, next: NextFunction): void {
  const refusal = inputShapeProblem(request.originalUrl, request.body);
  if (refusal) sendProblem(request, response, refusal);
  else next();
}
