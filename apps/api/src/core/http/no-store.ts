import { Header, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth.decorators';

/**
 * For answers that carry a secret shown once (an API key, a signing secret, an activation key): no cache, shared or
 * private, may keep them.
 */
export const NoStore = () => Header('Cache-Control', 'no-store');

/**
 * Every answer to an identified caller (an API key or a dashboard session) is `Cache-Control: no-store`: such answers
 * are the caller's own view, and carry personal data (people, owners, drivers, staff) that no cache, shared or the
 * browser's, may keep. Anonymous answers (the public views, without personal data) are left as they are.
 */
@Injectable()
export class NoStoreForCallersInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    if (http.getRequest<AuthenticatedRequest>().principal)
      http.getResponse<FastifyReply>().header('Cache-Control', 'no-store');
    return next.handle();
  }
}
