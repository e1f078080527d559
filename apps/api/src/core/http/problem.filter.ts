import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { isDomainError, type DomainErrorKind } from '@transport/domain';
import type { Request, Response } from 'express';
import { AppError, type AppErrorCode } from '../errors';
import { problem, PROBLEM_CONTENT_TYPE, type Problem, type ProblemField } from './problem';

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  validation: 400,
  not_found: 404,
  conflict: 409,
  rule: 422,
  forbidden: 403,
};

/** Express/body-parser errors carry a status and a type; they are the client's fault, never a 500. */
interface BodyParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/** The one place where errors become HTTP: domain error kinds to statuses, everything to problem+json. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const body = this.toProblem(error, request);
    if (body.status >= 500) {
      this.logger.error(`${request.method} ${request.originalUrl}: ${(error as Error)?.stack ?? String(error)}`);
    }
    if (body.status === 401) response.setHeader('WWW-Authenticate', 'Bearer realm="transport"');
    const retryAfter = error instanceof AppError ? error.extra.retryAfter : undefined;
    if (body.status === 429 && retryAfter) response.setHeader('Retry-After', String(retryAfter));
    response.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }

  private toProblem(error: unknown, request: Request): Problem {
    if (isDomainError(error)) {
      const errors: ProblemField[] | undefined = error.field
        ? [{ field: error.field, message: error.message }]
        : undefined;
      return problem(STATUS_BY_KIND[error.kind], error.message, { code: error.code, errors });
    }
    if (error instanceof AppError) return error.getResponse().problem;
    // Nest's own HTTP errors: an unknown route, and whatever a library raises.
    if (error instanceof HttpException) {
      const status = error.getStatus();
      const payload = error.getResponse();
      if (
        status === 404 &&
        typeof payload === 'object' &&
        /^Cannot /.test(String((payload as { message?: unknown }).message))
      ) {
        return new AppError('ROUTE_NOT_FOUND', `No route ${request.method} ${request.path}`).getResponse().problem;
      }
      const message = typeof payload === 'string' ? payload : (payload as { message?: unknown }).message;
      return problem(status, Array.isArray(message) ? message.join('; ') : String(message ?? error.message));
    }
    return bodyParserProblem(error) ?? problem(500, 'The server failed to handle the request; it has been logged');
  }
}

/** The problem for an error raised while reading the body (express/body-parser), if it is one. */
function bodyParserProblem(error: unknown): Problem | undefined {
  const parserError = error as BodyParserError;
  const status = parserError?.status ?? parserError?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (parserError.type === 'entity.parse.failed')
    return new AppError('MALFORMED_JSON', 'The request body is not valid JSON').getResponse().problem;
  if (parserError.type === 'entity.too.large')
    return new AppError('BODY_TOO_LARGE', 'The request body is larger than 100 kB').getResponse().problem;
  return problem(status, parserError.expose ? String((error as Error).message) : 'The request body was refused', {
    code: 'BAD_BODY' satisfies AppErrorCode,
  });
}

/** Express error middleware placed right after the body parser: its failures become problems, not generic errors. */
export function bodyParserErrors(
  error: unknown,
  _request: Request,
  response: Response,
  next: (error?: unknown) => void,
): void {
  const body = bodyParserProblem(error);
  if (!body) return next(error);
  response.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}
