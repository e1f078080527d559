import { applyDecorators, HttpCode, Post, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiPropertyOptional,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { Roles } from '../auth/auth.decorators';
import type { ViewedResource } from '../auth/views';
import { ID, IF_MATCH } from './dto-support';
import { ApiProblems } from './openapi';
import { IdParam } from './query-values';
import { View } from './view.interceptor';

// The assembly a record belongs to, as requests and responses carry it (owners, vehicles, drivers).

/** The `assembly` field a registration may carry. */
export function AssemblyOfNewRecord(whenAbsent: string) {
  return IdParam(
    'The `_id` of the assembly the record belongs to. Assembly keys register in their own assembly (naming another is 422 OTHER_ASSEMBLY); ' +
      `an assembly that does not exist is 422 ASSEMBLY_NOT_FOUND. Absent: ${whenAbsent}`,
  );
}

/** The `assembly` field of a response. */
export function AssemblyOfRecord() {
  return ApiPropertyOptional({
    ...ID,
    nullable: true,
    type: String,
    description:
      'The assembly whose staff see and act on the record; null: unassigned (only admins see it, and place it with a transfer).',
  });
}

/** Body of the admin-only transfers between assemblies. */
export class TransferBody {
  @IdParam('The `_id` of the assembly the record moves to.', true) assembly!: string;
}

export const TRANSFER_DESCRIPTION =
  'Admins only. Moves the record to another assembly: from then on only that assembly’s staff (and admins) see and act on it. ' +
  'Audited (the entry shows the assembly before and after). The same assembly again is 409 ALREADY_IN_ASSEMBLY; an assembly that does not exist is 422 ASSEMBLY_NOT_FOUND.';

/** `POST :id/transfer` of one kind of record, admin-only and documented the same way for owners, vehicles, drivers. */
export function TransferRoute(what: string, resource: ViewedResource, response: Type, tag: string) {
  return applyDecorators(
    Post(':id/transfer'),
    HttpCode(200),
    Roles('admin'),
    ApiTags(tag),
    ApiSecurity('apiKey'),
    ApiHeader(IF_MATCH),
    ApiOperation({ summary: `Move ${what} to another assembly`, description: TRANSFER_DESCRIPTION }),
    ApiBody({ type: TransferBody }),
    View(resource),
    ApiOkResponse({ type: response }),
    ApiProblems(400, 401, 403, 404, 409, 413, 415, 422),
  );
}
