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
import type { AppConfig } from '../config';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { ObjectIdPipe } from '../core/http/params';
import { APP_CONFIG } from '../core/tokens';
import { PhotoListQuery, PhotoResponse, PhotoUploadQuery } from './inspection-photos.dto';
import { InspectionPhotosService, PHOTO_MAX_BYTES, type PhotoView } from './inspection-photos.service';

@ApiTags('vehicles (management)')
@Controller('vehicles/:id/inspection-photos')
export class InspectionPhotosController {
  constructor(
    private readonly photos: InspectionPhotosService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @Roles('assembly')
  @ApiSecurity('apiKey')
  @ApiHeader({
    name: 'Idempotency-Key',
    required: true,
    description:
      'The key the inspection was sent with (POST /vehicles/{id}/inspect): the photo belongs to that inspection. The same photo (same bytes) sent again with the same key is the same photo: 200 with the first answer and `Idempotent-Replayed: true`, nothing stored twice.',
  })
  @ApiOperation({
    summary: 'Send a photo of an inspection: the plate, the VIN or a failed item (assembly inspectors only)',
    description:
      'The body is the image itself (raw bytes, any Content-Type: the type is told by the bytes), not multipart: a phone on a poor signal sends the fewest bytes and the same request again on a retry. ' +
      `JPEG, PNG or WebP only (else 415), at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB (else 413: the dashboard downsizes on the phone first). ` +
      'What the photo shows and when and where the device took it go in the query string. The record keeps the inspector, the time it was received, the SHA-256 and the size. ' +
      'Metadata that can carry a location (JPEG APP1/APP13, PNG eXIf and text chunks, WebP EXIF/XMP) is removed from what is served to readers who may not see the location.',
  })
  @ApiConsumes('image/jpeg', 'image/png', 'image/webp', 'application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiCreatedResponse({ type: PhotoResponse, description: 'Stored.' })
  @ApiOkResponse({ type: PhotoResponse, description: 'The same photo sent again with the same key: the first answer.' })
  @ApiProblems(400, 401, 403, 404, 413, 415)
  async upload(
    @Param('id', ObjectIdPipe) id: string,
    @Query() query: PhotoUploadQuery,
    @Headers('idempotency-key') inspectionKey: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PhotoView> {
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    const { photo, created } = await this.photos.upload(id, body, { ...query, inspectionKey }, actorOf(principal));
    reply.status(created ? 201 : 200);
    if (!created) reply.header('Idempotent-Replayed', 'true');
    return photo;
  }

  @Get()
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: "A vehicle's inspection photos, newest first (assembly staff of its assembly and admins)",
    description:
      'At most 200. `takenWhere` is shown to national admins and to assembly approvers and admins only. Other keys (platform, merchant) get 403; another assembly 404.',
  })
  @ApiOkResponse({ type: [PhotoResponse] })
  @ApiProblems(400, 401, 403, 404)
  list(
    @Param('id', ObjectIdPipe) id: string,
    @Query() query: PhotoListQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PhotoView[]> {
    return this.photos.list(id, actorOf(principal), query.inspectionKey);
  }

  @Get(':photoId')
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'One inspection photo, its image (assembly staff of the vehicle’s assembly and admins)',
    description:
      'With PostgreSQL storage, the image itself (`Cache-Control: private, no-store`). With S3 storage, a 302 to a presigned URL that works S3_URL_SECONDS (300 by default). ' +
      'National admins and assembly approvers and admins get the bytes as sent; everyone else the same image without the metadata that can say where it was taken.',
  })
  @ApiProduces('image/jpeg', 'image/png', 'image/webp')
  @ApiResponse({ status: 200, description: 'The image.' })
  @ApiResponse({ status: 302, description: 'S3 storage: to a short-lived presigned URL of the image.' })
  @ApiProblems(400, 401, 403, 404)
  async one(
    @Param('id', ObjectIdPipe) id: string,
    @Param('photoId', ObjectIdPipe) photoId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() principal: Principal,
  ): Promise<StreamableFile | undefined> {
    const content = await this.photos.content(id, photoId, actorOf(principal), this.config.objectStorage.urlSeconds);
    reply.header('Cache-Control', 'private, no-store');
    if ('url' in content) {
      reply.status(302).header('Location', content.url);
      return undefined;
    }
    reply.header('X-Content-Type-Options', 'nosniff');
    return new StreamableFile(content.object.body as NodeJS.ReadableStream & import('node:stream').Readable, {
      type: content.object.contentType,
      length: content.object.size,
    });
  }
}
