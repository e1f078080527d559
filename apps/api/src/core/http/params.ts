import { Injectable, type PipeTransform } from '@nestjs/common';
import { isObjectId } from '@transport/domain';
import { AppError } from '../errors';

/** `:id` path segments: 24 lowercase hex characters, else 400 (a well-formed unknown id is a 404 later). */
@Injectable()
export class ObjectIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isObjectId(value)) {
      throw new AppError('VALIDATION_FAILED', 'id must be a 24-character lowercase hex id', {
        errors: [{ field: 'id', message: 'must be a 24-character lowercase hex id' }],
      });
    }
    return value;
  }
}

/** If-Match: <__v> (bare, quoted or weak) makes the optimistic check explicit; anything else is a 400. */
export function expectedVersion(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match) {
    throw new AppError('VALIDATION_FAILED', 'If-Match must be the record revision (__v), e.g. If-Match: 3', {
      errors: [{ field: 'If-Match', message: 'must be a revision number' }],
    });
  }
  return Number(match[1]);
}

/**
 * If-Match for changes that must not be made blind (corrections): absent is 428 IF_MATCH_REQUIRED, so a client that
 * never read the record cannot overwrite what someone else just corrected.
 */
export function requiredVersion(header: string | undefined): number {
  const version = expectedVersion(header);
  if (version === undefined)
    throw new AppError(
      'IF_MATCH_REQUIRED',
      'A correction needs If-Match: <__v>, the revision of the record as you last read it',
      { errors: [{ field: 'If-Match', message: 'is required' }] },
    );
  return version;
}
