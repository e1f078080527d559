import { Body, Controller, Get, HttpCode, Inject, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';
import { CurrentPrincipal, Public, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { NoStore } from '../core/http/no-store';
import { ApiProblems } from '../core/http/openapi';
import { APP_CONFIG } from '../core/tokens';
import {
  ChangePasswordBody,
  InvitationResponse,
  InviteBody,
  LanguageBody,
  PasswordResetBody,
  SessionResponse,
  SetPasswordBody,
  SignInBody,
  toSessionResponse,
} from './people.dto';
import { parse as parseCookies } from 'cookie';
import { sessionCookieName } from '../core/auth/session-cookie';
import { PeopleService } from './people.service';
import { clearCookie, setCookie } from '../core/http/cookies';

const addressOf = (req: FastifyRequest) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/**
 * /auth: assembly staff signing in to the dashboard as people. The session travels in an http-only, SameSite=Strict
 * cookie; every change made with it must carry the session's CSRF token in `X-CSRF-Token`.
 */
@ApiTags('sign-in (people)')
@Controller('auth')
export class PeopleController {
  constructor(
    private readonly people: PeopleService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('sign-in')
  @Public()
  @ApiSecurity({})
  @HttpCode(200)
  @NoStore()
  @ApiOperation({
    summary: 'Sign in with an email and password (assembly staff)',
    description:
      'Sets the session cookie (`__Host-tp_session`: http-only, SameSite=Strict, Secure, path /, no Domain; plain `tp_session` without Secure when COOKIE_SECURE=false, for http in development) and answers the person and the CSRF token. ' +
      'A wrong email and a wrong password get the same 401 `INVALID_CREDENTIALS`. Attempts are limited per account and address, per address, and per account from all the addresses it has not signed in from in 90 days together (429 `RATE_LIMITED`). ' +
      'The session ends after SESSION_IDLE_MINUTES without a request, or SESSION_MAX_HOURS after sign-in.',
  })
  @ApiBody({ type: SignInBody })
  @ApiOkResponse({ type: SessionResponse })
  @ApiProblems(400, 401, 413, 415, 429)
  async signIn(
    @Body() body: SignInBody,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SessionResponse> {
    const { token, ...info } = await this.people.signIn(body.email, body.password, addressOf(req));
    this.setSessionCookie(res, token);
    return toSessionResponse(info);
  }

  private setSessionCookie(res: FastifyReply, token: string): void {
    setCookie(res, sessionCookieName(this.config.people.cookieSecure), token, {
      httpOnly: true,
      secure: this.config.people.cookieSecure,
      sameSite: 'strict',
      path: '/',
      maxAge: this.config.people.sessionMaxHours * 3_600_000,
    });
  }

  @Get('session')
  @Roles('assembly')
  @ApiSecurity('session')
  @NoStore()
  @ApiOperation({
    summary: 'Who is signed in, and the CSRF token of the session',
    description: 'For sessions only (the dashboard); an API key gets 403.',
  })
  @ApiOkResponse({ type: SessionResponse })
  @ApiProblems(401, 403)
  async session(@CurrentPrincipal() principal: Principal): Promise<SessionResponse> {
    return toSessionResponse(await this.people.current(principal));
  }

  @Put('language')
  @Roles('assembly')
  @ApiSecurity('session')
  @NoStore()
  @ApiOperation({
    summary: 'Choose your own language (a person signed in)',
    description:
      'The language the dashboard speaks to the person, stored with them and applied at their next sign-in on any phone. ' +
      'For sessions only, with the `X-CSRF-Token` header (403 `CSRF_REJECTED` without); an API key gets 403 `FORBIDDEN`: keys are not people. ' +
      'Only the person themselves: the route names no one else. A language the service does not speak is 400 `INVALID_LANGUAGE` (nothing changes). ' +
      'Sending the same language again answers the same and changes nothing.',
  })
  @ApiBody({ type: LanguageBody })
  @ApiOkResponse({ type: SessionResponse, description: 'The session, its person with the language chosen.' })
  @ApiProblems(400, 401, 403, 413, 415)
  async setLanguage(@Body() body: LanguageBody, @CurrentPrincipal() principal: Principal): Promise<SessionResponse> {
    return toSessionResponse(await this.people.setLanguage(principal, body.language));
  }

  @Post('sign-out')
  @Roles('assembly')
  @ApiSecurity('session')
  @HttpCode(204)
  @ApiOperation({ summary: 'End the session', description: 'Needs the `X-CSRF-Token` header; clears the cookie.' })
  @ApiNoContentResponse({ description: 'Signed out.' })
  @ApiProblems(401, 403)
  async signOut(
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<void> {
    await this.people.signOut(principal);
    clearCookie(res, sessionCookieName(this.config.people.cookieSecure), {
      httpOnly: true,
      secure: this.config.people.cookieSecure,
      sameSite: 'strict',
      path: '/',
    });
  }

  @Post('invitations')
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiSecurity('session')
  @HttpCode(202)
  @ApiOperation({
    summary: "Send an assembly user a link to set their password (through the messaging port, to the user's phone)",
    description:
      "An admin may invite any assembly user; an assembly admin the users of their own assembly (others' are 404). The link works for INVITATION_HOURS, once. A disabled user is 409 ASSEMBLY_USER_DISABLED: enable them first.",
  })
  @ApiBody({ type: InviteBody })
  @ApiAcceptedResponse({ type: InvitationResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 502)
  invite(@Body() body: InviteBody, @CurrentPrincipal() principal: Principal): Promise<InvitationResponse> {
    return this.people.invite(body.user, actorOf(principal));
  }

  @Post('password-reset')
  @Public()
  @ApiSecurity({})
  @HttpCode(202)
  @ApiOperation({
    summary: 'Ask for a link to set a new password',
    description:
      "When the email is an assembly user's, a link working for PASSWORD_RESET_MINUTES is sent to their phone. The answer is 202 either way; at most five links per account an hour, and the sign-in limit per address (429). " +
      "The account's own person, proved by a live session cookie of theirs or by asking from an address the account was signed in to from (in the last 90 days), has five links an hour of their own, which strangers' requests never use up.",
  })
  @ApiBody({ type: PasswordResetBody })
  @ApiAcceptedResponse({
    description:
      'Answered before the account is looked up: the link is sent afterwards, if the account exists (a gateway failure is logged, not answered).',
  })
  @ApiProblems(400, 413, 415, 429)
  async requestReset(@Body() body: PasswordResetBody, @Req() req: FastifyRequest): Promise<void> {
    // The session cookie, when sent, may prove the asker (the route is open: an ended one just proves nothing).
    const name = sessionCookieName(this.config.people.cookieSecure);
    const session = req.headers.cookie ? parseCookies(req.headers.cookie)[name] : undefined;
    await this.people.requestReset(body.email, addressOf(req), session);
  }

  @Post('password')
  @Public()
  @ApiSecurity({})
  @HttpCode(204)
  @ApiOperation({
    summary: 'Set a password with an invitation or reset link',
    description:
      "Uses the link (once: 410 `LINK_EXPIRED` after that, or past its time). Refuses a weak password with 422 `WEAK_PASSWORD` (the link stays usable). Ends the user's open sessions.",
  })
  @ApiBody({ type: SetPasswordBody })
  @ApiNoContentResponse({ description: 'The password is set; sign in with it.' })
  @ApiProblems(400, 410, 413, 415, 422, 429)
  async setPassword(@Body() body: SetPasswordBody, @Req() req: FastifyRequest): Promise<void> {
    await this.people.limitAddress(addressOf(req));
    await this.people.setPassword(body.token, body.password);
  }

  @Post('password/change')
  @Roles('assembly')
  @ApiSecurity('session')
  @HttpCode(200)
  @NoStore()
  @ApiOperation({
    summary: 'Change your own password, with your current one (a person signed in)',
    description:
      'For sessions only, with the `X-CSRF-Token` header (403 `CSRF_REJECTED` without); an API key gets 403 `FORBIDDEN`: keys are not people. ' +
      'A wrong current password is 403 `CURRENT_PASSWORD_WRONG` and counts as a failed sign-in of the account from that address: the same limits as `POST /auth/sign-in` (429 `RATE_LIMITED`), so this cannot be used to guess it. ' +
      'A new password the policy refuses (as for `POST /auth/password`), or the current one again, is 422 `WEAK_PASSWORD`. ' +
      'On success every other session of the person ends and their unused password links stop working, in one transaction, audited `PasswordChanged` (without the passwords). This session is renewed: the answer sets a new session cookie and carries a new CSRF token (the old cookie and token stop working), and the session still ends when the old one would have (`endsAt`).',
  })
  @ApiBody({ type: ChangePasswordBody })
  @ApiOkResponse({ type: SessionResponse, description: 'The password is changed; the renewed session.' })
  @ApiProblems(400, 401, 403, 413, 415, 422, 429)
  async changePassword(
    @Body() body: ChangePasswordBody,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SessionResponse> {
    const { token, ...info } = await this.people.changePassword(
      principal,
      body.currentPassword,
      body.newPassword,
      addressOf(req),
    );
    this.setSessionCookie(res, token);
    return toSessionResponse(info);
  }
}
