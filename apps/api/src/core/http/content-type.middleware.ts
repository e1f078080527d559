import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';
import { PROBLEM_CONTENT_TYPE } from './problem';

/** Requests that carry a body must say it is JSON: anything else is 415, before it is parsed or acted on. */
@Injectable()
export class JsonContentTypeMiddleware implements NestMiddleware {
  use(request: Request, response: Response, next: NextFunction): void {
    const hasBody =
      Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    // Provider callbacks are taken whatever their content type: they are stored raw, then judged.
    const isCallback = /\/payment\/callback\//.test(request.originalUrl);
    if (
      ['POST', 'PUT', 'PATCH'].includes(request.method) &&
      hasBody &&
      !isCallback &&
      !request.is('application/json')
    ) {
      response
        .status(415)
        .type(PROBLEM_CONTENT_TYPE)
        .send(
          JSON.stringify(
            new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json').getResponse().problem,
          ),
        );
      return;
    }
    next();
  }
}
