import {
  Injectable,
  SetMetadata,
  StreamableFile,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { viewOf, type ViewedResource, type Viewer } from '../auth/views';

export const VIEW_KEY = 'transport:view';

/** Where the records sit in a response body. */
export type ViewPlace = 'body' | 'payload' | 'each.vehicle';

/**
 * The response carries this resource (at `place`): it is sent in the caller's view of it (core/auth/views.ts).
 * 'body': the body is the record, or an array of them; 'payload': body.payload is; 'each.vehicle': body is an array
 * of entries whose `vehicle` is.
 */
export const View = (resource: ViewedResource, place: ViewPlace = 'body') => SetMetadata(VIEW_KEY, { resource, place });

@Injectable()
export class ViewInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const declared = this.reflector.get<{ resource: ViewedResource; place: ViewPlace } | undefined>(
      VIEW_KEY,
      context.getHandler(),
    );
    if (!declared) return next.handle();
    const viewer: Viewer = context.switchToHttp().getRequest<AuthenticatedRequest>().principal?.role ?? 'anonymous';
    const one = (record: unknown) => viewOf(declared.resource, viewer, record);
    const many = (value: unknown) => (Array.isArray(value) ? value.map(one) : one(value));
    return next.handle().pipe(
      map((body: unknown) => {
        // A CSV export applies the view to each row itself (csv-export.ts).
        if (body instanceof StreamableFile) return body;
        if (declared.place === 'body') return many(body);
        if (declared.place === 'payload') {
          const envelope = body as { payload?: unknown };
          return { ...envelope, payload: many(envelope.payload) };
        }
        return (body as Array<{ vehicle: unknown }>).map((entry) => ({ ...entry, vehicle: one(entry.vehicle) }));
      }),
    );
  }
}
