import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../core/errors';
import type { UssdRequest, UssdResponse } from './hubtel-ussd';
import { FALLBACK_LANGUAGE, LANGUAGES } from './message-catalogue';
import type { MessageKey } from './message-catalogue';
import { PublicChecksService } from './public-checks.service';
import { reportReason } from './report-reasons';

/** The most characters a USSD screen shows (GSM-7, one USSD message). */
export const USSD_SCREEN_CHARS = 182;

const STEPS = ['menu', 'vehicle', 'driver', 'language', 'report', 'reason'] as const;
type Step = (typeof STEPS)[number];

/**
 * Where a session is, carried by Hubtel from one step to the next in ClientState (Hubtel sends back what the last
 * answer set, then discards it): the language, the step, and the plate being reported. Nothing is kept in the
 * service between steps, so any instance answers any step. A state that does not read as one starts over.
 */
interface SessionState {
  language: string;
  step: Step;
  plate: string;
}

function readState(text: string): SessionState | undefined {
  const [language, step, plate = ''] = text.split('|');
  if (!(LANGUAGES as readonly string[]).includes(language) || !(STEPS as readonly string[]).includes(step))
    return undefined;
  return { language, step: step as Step, plate: plate.slice(0, 20) };
}

const writeState = (s: SessionState) => `${s.language}|${s.step}|${s.plate.replace(/\|/g, '')}`;

/** The USSD menu over Hubtel Programmable Services (docs/ussd-sms.md). Screens come from the message catalogue. */
@Injectable()
export class UssdFlow {
  private readonly logger = new Logger('UssdFlow');

  constructor(private readonly checks: PublicChecksService) {}

  async answer(req: UssdRequest): Promise<UssdResponse> {
    if (req.type === 'release' || req.type === 'timeout') {
      const language = readState(req.clientState)?.language ?? FALLBACK_LANGUAGE;
      return this.end(req, req.type === 'release' ? this.checks.text(language, 'ussd.ended') : '');
    }
    try {
      await this.checks.countUssdStep(req.mobile);
    } catch (error) {
      if (error instanceof AppError && error.code === 'RATE_LIMITED')
        return this.end(req, this.checks.text(FALLBACK_LANGUAGE, 'ussd.tooMany'));
      throw error;
    }
    const state = req.type === 'initiation' ? undefined : readState(req.clientState);
    // A new session opens in the language of the caller's record (a driver's or an owner's), else English; option 3
    // changes it for the session only (a USSD session does not change a record: docs/languages.md).
    if (!state) return this.menu(req, await this.checks.languageOf(req.mobile));
    const input = req.message.trim();
    const { language } = state;
    const t = (key: MessageKey, values?: Record<string, string>) => this.checks.text(language, key, values);
    switch (state.step) {
      case 'menu':
        switch (input) {
          case '1':
            return this.ask(req, { ...state, step: 'vehicle' }, t('ussd.askVehicle'));
          case '2':
            return this.ask(req, { ...state, step: 'driver' }, t('ussd.askDriver'));
          case '3':
            return this.ask(req, { ...state, step: 'language' }, this.languages(language));
          case '4':
            return this.ask(req, { ...state, step: 'report' }, t('ussd.askReportPlate'));
          default:
            return this.menu(req, language, t('ussd.invalid'));
        }
      case 'vehicle':
        return this.end(req, await this.checks.vehicleVerdict(input, language));
      case 'driver':
        return this.end(req, await this.checks.driverVerdict(input, language));
      case 'language': {
        const chosen = /^\d$/.test(input) ? LANGUAGES[Number(input) - 1] : undefined;
        if (!chosen) return this.ask(req, state, `${t('ussd.invalid')}\n${this.languages(language)}`);
        return this.menu(req, chosen);
      }
      case 'report': {
        if (input.replace(/[^A-Za-z0-9]/g, '').length < 3) return this.ask(req, state, t('ussd.askReportPlate'));
        const { plate } = await this.checks.reportedPlate(input);
        return this.ask(req, { ...state, step: 'reason', plate }, t('ussd.askReportReason', { plate }));
      }
      case 'reason': {
        const reason = reportReason(input);
        if (!reason)
          return this.ask(
            req,
            state,
            `${t('ussd.invalid')}\n${t('ussd.askReportReason', { plate: state.plate })}`.slice(0, USSD_SCREEN_CHARS),
          );
        try {
          const plate = await this.checks.report(state.plate, reason, req.mobile, 'ussd');
          return this.end(req, t('ussd.reported', { plate }));
        } catch (error) {
          if (error instanceof AppError && error.code === 'RATE_LIMITED') return this.end(req, t('ussd.tooMany'));
          throw error;
        }
      }
    }
  }

  private languages(language: string): string {
    const names = LANGUAGES.map((l, i) => `${i + 1} ${this.checks.text(l, 'language.name')}`);
    return [this.checks.text(language, 'ussd.languages'), ...names].join('\n');
  }

  private menu(req: UssdRequest, language: string, before?: string): UssdResponse {
    const menu = this.checks.text(language, 'ussd.menu');
    return this.ask(req, { language, step: 'menu', plate: '' }, before ? `${before}\n${menu}` : menu);
  }

  private ask(req: UssdRequest, state: SessionState, message: string): UssdResponse {
    return this.screen(req, 'response', message, writeState(state));
  }

  private end(req: UssdRequest, message: string): UssdResponse {
    return this.screen(req, 'release', message, '');
  }

  private screen(req: UssdRequest, type: 'response' | 'release', message: string, clientState: string): UssdResponse {
    let shown = message;
    if (shown.length > USSD_SCREEN_CHARS) {
      // The catalogue's tests keep every screen within the limit; a record's long field must not break a session.
      this.logger.warn(`A USSD screen of ${shown.length} characters was cut to ${USSD_SCREEN_CHARS}`);
      shown = `${shown.slice(0, USSD_SCREEN_CHARS - 2)}..`;
    }
    return {
      SessionId: req.sessionId,
      Type: type,
      Message: shown,
      Label: 'Transport registry',
      ClientState: clientState,
      DataType: type === 'response' ? 'input' : 'display',
      FieldType: type === 'response' ? 'text' : '',
    };
  }
}
