import { applyDecorators, Get, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../core/auth/auth.decorators';
import { ApiProblems } from '../core/http/openapi';

/** A reference-data list (regions, stations, unions): any key, newest first, `limit`/`after` with a Link header. */
export function ReferenceListRoute(path: string, what: string, type: Type) {
  return applyDecorators(
    Get(path),
    Roles('admin', 'assembly', 'merchant', 'platform'),
    ApiTags('reference data'),
    ApiOperation({
      summary: `List ${what}`,
      description: `For drop-down lists: every ${what.replace(/s$/, '')}, newest first; \`limit\` 1..500 with a \`Link: <...>; rel="next"\` header carrying the \`after\` cursor.`,
    }),
    ApiOkResponse({ type, isArray: true }),
    ApiProblems(400, 401, 403),
  );
}
