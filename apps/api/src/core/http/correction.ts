import { applyDecorators, HttpCode, Post, type Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../auth/auth.decorators';
import type { ViewedResource } from '../auth/views';
import { IF_MATCH } from './dto-support';
import { ApiProblems } from './openapi';
import { View } from './view.interceptor';

/** What every correction route says beyond its own fields and rule. */
const CORRECTION_TERMS =
  'Each field is checked as at registration, together with the rest of the record. Without If-Match: 428 IF_MATCH_REQUIRED; ' +
  'a stale one: 409, nothing written. A correction that changes nothing writes nothing. The audit entry holds only the changed fields, before and after.';

/**
 * `POST /<records>/:id/correct`: admins and assembly inspectors and approvers (the `correctRecords` duty), If-Match
 * required, the answer in the caller's view. `rule` says which fields may change and what approval does to them.
 */
export function CorrectRoute(
  what: string,
  resource: ViewedResource,
  body: Type,
  response: Type,
  tag: string,
  rule: string,
) {
  return applyDecorators(
    Post(':id/correct'),
    HttpCode(200),
    Roles('admin', 'assembly'),
    ApiTags(tag),
    ApiSecurity('apiKey'),
    ApiHeader({ ...IF_MATCH, required: true }),
    ApiOperation({
      summary: `Correct ${what} (If-Match required; assembly inspectors and approvers, admins)`,
      description: `${rule} ${CORRECTION_TERMS}`,
    }),
    ApiBody({ type: body }),
    View(resource),
    ApiOkResponse({ type: response }),
    ApiProblems(400, 401, 403, 404, 409, 413, 415, 422, 428),
  );
}
