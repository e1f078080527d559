import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiSecurity,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLanguage, LANGUAGE_CODES, languageFromAcceptLanguage, type Language } from '@transport/domain';
import type { AppConfig } from '../config';
import { CurrentPrincipal, Public, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { clientAddressKey } from '../core/http/client-address';
import { ApiProblems } from '../core/http/openapi';
import { ObjectIdPipe } from '../core/http/params';
import { APP_CONFIG } from '../core/tokens';
import { certificatePage, checkPage } from './certificate-pages';
import {
  CertificateCheckResponse,
  CertificateQuery,
  JwksResponse,
  toCertificateCheckResponse,
} from './certificates.dto';
import { CertificatesService } from './certificates.service';
import { preferredType } from '../core/http/negotiation';

const HTML = 'text/html; charset=utf-8';
const HTML_PAGE = { schema: { type: 'string' as const, description: 'An HTML page.' } };

/**
 * Vehicle certificates: the printable page for staff, the public keys, and the public check a QR code leads to.
 * Thin: the service decides, certificate-pages.ts renders.
 */
@ApiTags('certificates')
@Controller()
export class CertificatesController {
  constructor(
    private readonly certificates: CertificatesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('vehicles/:id/certificate')
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: "View an approved vehicle's certificate before printing it (an HTML preview, without a QR code)",
    description:
      'The sheet as it would print now (the plate, make, model, colour, type, union, station, assembly, approval date and document expiry dates), with a box saying "Preview: not a certificate" where the QR code goes. ' +
      'Viewing is not printing: no token is signed, nothing is audited, and the next print is not made a reprint by it (HEAD the same). ' +
      "Print with POST /vehicles/{id}/certificate. Within the caller's jurisdiction (another assembly's vehicle is a 404). Only an approved vehicle has one: 422 VEHICLE_NOT_APPROVED.",
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The preview (print CSS sizes the page).', content: { 'text/html': HTML_PAGE } })
  @ApiProblems(400, 401, 403, 404, 422)
  async view(
    @Param('id', ObjectIdPipe) id: string,
    @Query() query: CertificateQuery,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<string> {
    const preview = await this.certificates.view(id, actorOf(principal));
    res.header('Content-Type', HTML);
    return certificatePage(preview, query.size ?? 'a6', this.config.timeZone);
  }

  @Post('vehicles/:id/certificate')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: "Print an approved vehicle's certificate (an HTML page with a QR code; A6 sticker or A4 page)",
    description:
      'The explicit act of printing, and the only one that makes a certificate: no body; a dashboard session sends its X-CSRF-Token (403 CSRF_REJECTED without), as for every change. ' +
      'The plate, make, model, colour, type, union, station, assembly, approval date and document expiry dates, and a QR code holding `{PUBLIC_BASE_URL}/v/{token}`: ' +
      'a token signed with the first of CERTIFICATE_SIGNING_KEYS (Ed25519, a compact JWS with the key id in its header) naming the vehicle, its plate and its approval. ' +
      "Within the caller's jurisdiction (another assembly's vehicle is a 404). Only an approved vehicle has one: 422 VEHICLE_NOT_APPROVED. " +
      'Every print is audited on the vehicle: CertificateIssued the first time under an approval, CertificateReprinted after (viewing, GET, is neither). ' +
      'Withdrawing the approval (a failed re-inspection, a corrected plate) withdraws every certificate printed under it.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({
    description: 'The printable certificate (print CSS sizes the page).',
    content: { 'text/html': HTML_PAGE },
  })
  @ApiProblems(400, 401, 403, 404, 422)
  async print(
    @Param('id', ObjectIdPipe) id: string,
    @Query() query: CertificateQuery,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<string> {
    const printed = await this.certificates.print(id, actorOf(principal));
    res.header('Content-Type', HTML);
    return certificatePage(printed, query.size ?? 'a6', this.config.timeZone);
  }

  @Get('.well-known/jwks.json')
  @Public()
  @ApiSecurity({})
  @ApiOperation({
    summary: "The public keys vehicle certificates' tokens are checked with (JWKS, RFC 7517)",
    description:
      'Every key of CERTIFICATE_SIGNING_KEYS as an Ed25519 JWK (kty OKP), the signing key first; a retired key is no longer listed, and its certificates are then not genuine. ' +
      'Cacheable for an hour: publish a new key (second in the list) at least that long before it signs.',
  })
  @ApiOkResponse({ type: JwksResponse })
  jwks(@Res({ passthrough: true }) res: FastifyReply): JwksResponse {
    res.header('Cache-Control', 'public, max-age=3600');
    return this.certificates.jwks();
  }

  @Get('v/:token')
  @Public()
  @ApiSecurity({})
  @ApiOperation({
    summary: 'Check a vehicle certificate (what its QR code opens): valid, expired, withdrawn or not genuine',
    description:
      'A phone-sized HTML page by default; the same answer as JSON with `Accept: application/json`. Always 200 with the verdict: ' +
      "`valid`, `expired` (naming the documents that ended: roadworthy, insurance, the linked driver's licence), `withdrawn` (the approval it names ended) or `not_genuine` (unreadable, an unknown or retired key, or a bad signature). " +
      "With a genuine certificate: the vehicle's public fields as they are now (a station the vehicle left is not shown) and the linked driver's first name and rating while that driver is approved (a revoked driver is never shown: driver null, and their licence is not counted); never a phone number, an ID number or the owner. " +
      'Cacheable for CERTIFICATE_CHECK_CACHE_SECONDS (default 60); counted per client address (CERTIFICATE_CHECKS_PER_ADDRESS_PER_MINUTE, then 429).',
  })
  @ApiExtraModels(CertificateCheckResponse)
  @ApiProduces('text/html', 'application/json')
  @ApiOkResponse({
    description: 'The verdict: an HTML page, or JSON with Accept: application/json.',
    content: {
      'text/html': HTML_PAGE,
      'application/json': { schema: { $ref: getSchemaPath(CertificateCheckResponse) } },
    },
  })
  @ApiProblems(429)
  @ApiQuery({
    name: 'lang',
    required: false,
    enum: LANGUAGE_CODES,
    description:
      "The page's language (the page's language links set it). Absent or not one of these: the best of Accept-Language, else English.",
  })
  async check(
    @Param('token') token: string,
    @Query('lang') lang: unknown,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<string | CertificateCheckResponse> {
    const check = await this.certificates.check(token, clientAddressKey(req.ip));
    res.header('Vary', 'Accept, Accept-Language');
    res.header('Cache-Control', `public, max-age=${this.config.certificates.checkCacheSeconds}`);
    if (preferredType(req, ['text/html', 'application/json']) === 'application/json')
      return toCertificateCheckResponse(check);
    const language = pageLanguage(lang, req.headers['accept-language']);
    res.header('Content-Type', HTML);
    res.header('Content-Language', language);
    return checkPage(check, this.config.timeZone, language);
  }
}

/** The check page's language: `?lang=` when it names one, else the best of Accept-Language, else English. */
function pageLanguage(lang: unknown, acceptLanguage: string | undefined): Language {
  const chosen = typeof lang === 'string' ? lang.trim().toLowerCase() : undefined;
  return isLanguage(chosen) ? chosen : languageFromAcceptLanguage(acceptLanguage);
}
