import {
  applyDecorators,
  Inject,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ApiHeader } from '@nestjs/swagger';
import { DomainError, type Clock } from '@transport/domain';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, of, throwError, type Observable } from 'rxjs';
import { setTimeout as delay } from 'node:timers/promises';
import type { AppConfig } from '../../config';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import type { EventLog, IdempotencyRecords, IdempotentAnswer, JobWorkers } from '../ports';
import { APP_CONFIG, CLOCK, EVENT_LOG, IDEMPOTENCY_RECORDS, JOB_WORKERS } from '../tokens';
import { scheduledJob } from '../scheduled-job';

// Idempotency keys (issue 43): a phone that lost the answer to a state change it queued sends it again with the key it
// made once; the service answers what it answered the first time instead of applying it again (a second inspection) or
// refusing it as a conflict with itself (the first one moved the revision its If-Match names). As payment APIs do.

const KEY = /^[\x21-\x7e]{1,255}$/;

/** How long a second try waits for the first try of its key to finish before it is told to come back later. */
const CLAIM_WAIT_MS = 8_000;
const CLAIM_POLL_MS = 100;
const CLAIM_RETRY_AFTER_SECONDS = 5;
/** A claim never answered after this long was left by a try that died (a restart mid-request): it is taken over. */
const CLAIM_LEASE_MS = 120_000;

export const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'A key the client makes once per state change (a UUID, say; 1 to 255 visible ASCII characters) and sends again with every retry of it. ' +
    'A retry with the same key and the same body gets the first answer again (status and body, with `Idempotent-Replayed: true`), without the change being applied again. ' +
    'A retry that arrives while the first try is still being carried out waits for it (up to 8 s) and gets its answer; past that it is a 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After, and nothing is applied. ' +
    'The same key with another body or on another route is a 422 IDEMPOTENCY_KEY_REUSED. Keys are per caller (another caller with the same key is a new request) ' +
    'and are kept IDEMPOTENCY_KEY_HOURS (168 by default), then forgotten: a request with an expired key is a new one. Only accepted changes are kept: a refused one is evaluated anew when retried.',
};

const hashOf = (body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');

/** Answers a replayed state change (same caller, key and body) with its first answer; keeps the first answer. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @Inject(IDEMPOTENCY_RECORDS) private readonly records: IdempotencyRecords,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & FastifyRequest>();
    const header = request.headers['idempotency-key'];
    if (header === undefined || !request.principal) return next.handle();
    const key = Array.isArray(header) ? header.join(',') : header;
    if (!KEY.test(key))
      throw new DomainError(
        'INVALID_VALUE',
        'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)',
        'Idempotency-Key',
      );
    const principal = request.principal;
    const actorId = `${principal.role}:${principal.principalId}`;
    const route = `${request.method} ${request.url.split('?')[0]}`;
    const bodyHash = hashOf(request.body);
    const status =
      (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ??
      (request.method === 'POST' ? 201 : 200);
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return from(this.claim({ actorId, key, route, bodyHash }, reply)).pipe(
      mergeMap((kept) => {
        if (kept) {
          reply.header('Idempotent-Replayed', 'true');
          return of(kept.body);
        }
        return next.handle().pipe(
          mergeMap(async (body: unknown) => {
            await this.records.answer(actorId, key, status, body);
            return body;
          }),
          // A refused or failed try keeps nothing: the next try under the key is judged anew.
          catchError((error: unknown) =>
            from(this.records.release(actorId, key)).pipe(mergeMap(() => throwError(() => error))),
          ),
        );
      }),
    );
  }

  /**
   * Claims the key for this try (undefined), or the first try's answer to send again. A first try still being carried
   * out is waited for, up to CLAIM_WAIT_MS (a phone that gave up on a slow answer and sent again meanwhile).
   */
  private async claim(
    request: Pick<IdempotentAnswer, 'actorId' | 'key' | 'route' | 'bodyHash'>,
    reply: FastifyReply,
  ): Promise<IdempotentAnswer | undefined> {
    const waitUntil = performance.now() + CLAIM_WAIT_MS;
    for (;;) {
      const at = this.clock.now();
      const kept = await this.records.claim(
        { ...request, createdAt: at, expiresAt: new Date(at.getTime() + this.config.idempotencyKeyHours * 3_600_000) },
        new Date(at.getTime() - CLAIM_LEASE_MS),
      );
      if (!kept) return undefined;
      if (kept.route !== request.route || kept.bodyHash !== request.bodyHash)
        throw new DomainError(
          'IDEMPOTENCY_KEY_REUSED',
          `This Idempotency-Key was used for another request (${kept.route}, another body): make a new key for a new change`,
          'Idempotency-Key',
        );
      if (kept.status !== undefined) return kept;
      if (performance.now() >= waitUntil) {
        reply.header('Retry-After', String(CLAIM_RETRY_AFTER_SECONDS));
        throw new DomainError(
          'IDEMPOTENCY_KEY_IN_PROGRESS',
          'A first try of this change, under this Idempotency-Key, is still being carried out: send it again later, with the same key',
          'Idempotency-Key',
        );
      }
      await delay(CLAIM_POLL_MS);
    }
  }
}

/** The route takes an Idempotency-Key (documented in the OpenAPI document). */
export const Idempotent = () =>
  applyDecorators(UseInterceptors(IdempotencyInterceptor), ApiHeader(IDEMPOTENCY_KEY_HEADER));

/** The queue of the purge of expired idempotency keys (hourly, once across all instances). */
export const IDEMPOTENCY_PURGE_QUEUE = 'idempotency-purge';

/** Deletes the expired idempotency keys every hour (pg-boss cron: one instance runs it). */
@Injectable()
export class IdempotencyPurge implements OnApplicationBootstrap {
  constructor(
    @Inject(IDEMPOTENCY_RECORDS) private readonly records: IdempotencyRecords,
    @Inject(JOB_WORKERS) private readonly workers: JobWorkers,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_LOG) private readonly events: EventLog,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.workers.start([
      scheduledJob(IDEMPOTENCY_PURGE_QUEUE, '17 * * * *', async () => {
        const purged = await this.records.purge(this.clock.now());
        if (purged > 0) this.events.info('idempotency.purged', { purged });
      }),
    ]);
  }
}
