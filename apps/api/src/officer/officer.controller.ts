import { Controller, Get, Headers, Inject, Param, Post, Query, Req, Res, StreamableFile } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { acceptsGzip } from '../core/http/negotiation';
import type { AppConfig } from '../config';
import { CurrentPrincipal, Public, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { ObjectIdPipe } from '../core/http/params';
import { APP_CONFIG } from '../core/tokens';
import { PHOTO_MAX_BYTES, type PhotoContent } from '../inspection-photos/inspection-photos.service';
import { NoticePhotoQuery, NoticePhotoResponse, OfficerDayResponse } from './officer.dto';
import { NoticePhotosService, NOTICE_PHOTO_LIMIT, type NoticePhotoView } from './notice-photos.service';
import { OfficerDayService } from './officer-day.service';
import { EnforcementPackVehicleResponse } from './officer-pack';
import { ENFORCER_PACK_LIMIT, OfficerPackService } from './officer-pack.service';
import { WorkPackQuery } from '../work-pack/work-pack.dto';

/** Sends a photo's bytes: a redirect to a short-lived URL (S3), or the bytes themselves (PostgreSQL). */
function served(content: PhotoContent, reply: FastifyReply, cache: string): StreamableFile | undefined {
  reply.header('Cache-Control', cache);
  if ('url' in content) {
    reply.status(302).header('Location', content.url);
    return undefined;
  }
  reply.header('X-Content-Type-Options', 'nosniff');
  return new StreamableFile(content.object.body as NodeJS.ReadableStream & Readable, {
    type: content.object.contentType,
    length: content.object.size,
  });
}

@ApiTags('enforcement')
@ApiSecurity('apiKey')
@Controller('enforcement')
export class OfficerController {
  constructor(
    private readonly photos: NoticePhotosService,
    private readonly day: OfficerDayService,
    private readonly pack: OfficerPackService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('my-day')
  @Roles('assembly')
  @ApiOperation({
    summary: "An enforcer's own day: the notices they recorded and the checks they made since midnight",
    description:
      "Midnight in the service's time zone (TZ_DEFAULT). Enforcers only (another role: 403 DUTY_NOT_ALLOWED). Newest first, at most 200 of each.",
  })
  @ApiOkResponse({ type: OfficerDayResponse })
  @ApiProblems(401, 403)
  myDay(@CurrentPrincipal() p: Principal): Promise<OfficerDayResponse> {
    return this.day.today(actorOf(p));
  }

  @Get('work-pack')
  @Roles('assembly')
  @ApiOperation({
    summary: "An enforcer's work pack: the vehicles they meet, for checking them without a signal",
    description:
      "A task-force officer's assembly's vehicles; a nationwide officer's, every assembly's. Enforcers only (another role: 403 DUTY_NOT_ALLOWED). " +
      'Each: the plate (and its search key), make, model, colour, type, whether it is approved, its document dates, its open notices, and the approved driver\'s licence number and phone as salted hashes only (docs/enforcement.md, "On the phone"). ' +
      `Oldest first, \`limit\` up to ${ENFORCER_PACK_LIMIT} (the default) a page, the next in the \`Link\` header. ` +
      'Each page has an `ETag`: sent back as `If-None-Match`, an unchanged page answers 304 without a body. Gzip-encoded when the request accepts it.',
  })
  @ApiOkResponse({ type: EnforcementPackVehicleResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async workPack(
    @Query() query: WorkPackQuery,
    @CurrentPrincipal() p: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<EnforcementPackVehicleResponse[] | Buffer> {
    const limit = Math.min(query.limit ?? ENFORCER_PACK_LIMIT, ENFORCER_PACK_LIMIT);
    const page = await this.pack.page(limit, query.after, actorOf(p));
    if (page.next) res.header('Link', `</enforcement/work-pack?limit=${limit}&after=${page.next}>; rel="next"`);
    res.header('Vary', 'Accept-Encoding');
    if (!acceptsGzip(req)) return page.items;
    // As the inspectors' pack: gzip-encoded when accepted, and its ETag over what is sent (304 to If-None-Match).
    res.header('Content-Encoding', 'gzip').type('application/json; charset=utf-8');
    return gzipSync(JSON.stringify(page.items));
  }

  @Post('notices/:id/photos')
  @Roles('admin', 'assembly')
  @ApiHeader({
    name: 'Idempotency-Key',
    required: true,
    description:
      'One key per photo, made on the phone when the photo was taken and sent with every try: the same key again is the same photo (200 with the first answer and `Idempotent-Replayed: true`, nothing stored twice).',
  })
  @ApiOperation({
    summary: 'Send an evidence photo of a notice (the officer who recorded it; an admin of its assembly)',
    description:
      'The body is the image itself (raw bytes, any Content-Type: the type is told by the bytes), as for inspection photos. ' +
      `JPEG, PNG or WebP only (else 415), at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB (else 413: the dashboard downsizes on the phone first), at most ${NOTICE_PHOTO_LIMIT} a notice (400). ` +
      "A notice the caller may not read is 404, as a missing one; one they may read but did not record (another officer, the assembly's other staff) is 403 DUTY_NOT_ALLOWED. " +
      'The location the image carries is removed from what is served to readers who may not see it, and always from the public notice page.',
  })
  @ApiConsumes('image/jpeg', 'image/png', 'image/webp', 'application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiCreatedResponse({ type: NoticePhotoResponse, description: 'Stored.' })
  @ApiOkResponse({ type: NoticePhotoResponse, description: 'The same key again: the first answer.' })
  @ApiProblems(400, 401, 403, 404, 413, 415)
  async upload(
    @Param('id', ObjectIdPipe) id: string,
    @Query() query: NoticePhotoQuery,
    @Headers('idempotency-key') key: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() principal: Principal,
  ): Promise<NoticePhotoView> {
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    const { photo, created } = await this.photos.upload(id, body, { ...query, key }, actorOf(principal));
    reply.status(created ? 201 : 200);
    if (!created) reply.header('Idempotent-Replayed', 'true');
    return photo;
  }

  @Get('notices/:id/photos')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: "A notice's evidence photos, oldest first (those who may read the notice)",
    description:
      "The national admin, the staff of the notice's assembly and the officer who recorded it; anyone else 404. `takenWhere` only for national admins and assembly approvers and admins.",
  })
  @ApiOkResponse({ type: [NoticePhotoResponse] })
  @ApiProblems(400, 401, 403, 404)
  list(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() p: Principal): Promise<NoticePhotoView[]> {
    return this.photos.list(id, actorOf(p));
  }

  @Get('notices/:id/photos/:photoId')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'One evidence photo of a notice, its image (those who may read the notice)',
    description:
      'With PostgreSQL storage, the image itself (`Cache-Control: private, no-store`); with S3 storage, a 302 to a presigned URL. ' +
      'National admins and assembly approvers and admins get the bytes as sent; everyone else the image without its location metadata.',
  })
  @ApiProduces('image/jpeg', 'image/png', 'image/webp')
  @ApiResponse({ status: 200, description: 'The image.' })
  @ApiResponse({ status: 302, description: 'S3 storage: to a short-lived presigned URL of the image.' })
  @ApiProblems(400, 401, 403, 404)
  async one(
    @Param('id', ObjectIdPipe) id: string,
    @Param('photoId', ObjectIdPipe) photoId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() p: Principal,
  ): Promise<StreamableFile | undefined> {
    const content = await this.photos.content(id, photoId, actorOf(p), this.config.objectStorage.urlSeconds);
    return served(content, reply, 'private, no-store');
  }
}

/** The evidence photos on the public notice page: bound to the notice's signed token, never with a location. */
@ApiTags('enforcement')
@Controller('n')
export class NoticePagePhotosController {
  constructor(
    private readonly photos: NoticePhotosService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':token/photos/:photoId')
  @Public()
  @ApiSecurity({})
  @ApiOperation({
    summary: "An evidence photo of a notice, from its public page (the page's token)",
    description:
      'The image without the metadata that can say where it was taken. A token that is not genuine, or a photo of another notice, is 404.',
  })
  @ApiProduces('image/jpeg', 'image/png', 'image/webp')
  @ApiResponse({ status: 200, description: 'The image.' })
  @ApiResponse({ status: 302, description: 'S3 storage: to a short-lived presigned URL of the image.' })
  @ApiProblems(400, 404)
  async photo(
    @Param('token') token: string,
    @Param('photoId', ObjectIdPipe) photoId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    const content = await this.photos.publicContent(token, photoId, this.config.objectStorage.urlSeconds);
    return served(content, reply, 'no-store');
  }
}
