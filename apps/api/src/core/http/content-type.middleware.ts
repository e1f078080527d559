import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';
import { sendProblem } from './problem.filter';

/** Requests that carry a body must say it is JSON: anything else is 415, before it is parsed or acted on. */
@Injectable()
export class JsonContentTypeMiddleware implements NestMiddleware {
  use(request: Request, response: Response, next: NextFunction): void {
    const hasBody =
      Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    // Provider callbacks are taken whatever their content type: they are stored raw, then judged. Told by the path
    // alone: a query string naming the callback path must not lift the check from another route.
    const isCallback = /\/payment\/callback\/[^/]+$/.test(request.originalUrl.split('?')[0]);
    if (
      ['POST', 'PUT', 'PATCH'].includes(request.method) &&
      hasBody &&
      !isCallback &&
      !request.is('application/json')
    ) {
      sendProblem(
        request,
        response,
        new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json'),
      );
      return;
    }
    next();
  }
}
