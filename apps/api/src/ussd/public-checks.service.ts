import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  normalizePhone,
  readCheckCode,
  registrationSearchKey,
  vehicleColour,
  type CertificateDocument,
  type Clock,
  type IdGenerator,
  type Language,
} from '@transport/domain';
import { CertificatesService } from '../certificates/certificates.service';
import type { AppConfig } from '../config';
import type { MessageSender, RateLimits } from '../core/ports';
import type { PublicRegistry } from '../core/public-registry';
import { APP_CONFIG, CLOCK, ID_GENERATOR, MESSAGE_SENDER, PUBLIC_REGISTRY, RATE_LIMITS } from '../core/tokens';
import { MessageCatalogue, type MessageKey, type MessageValues } from './message-catalogue';
import type { VehicleReportReason } from './report-reasons';

/** Longest make and union names shown: a verdict must fit one USSD screen (182 characters). */
const MAKE_CHARS = 14;
const UNION_CHARS = 20;
const TYPED_CHARS = 20;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 2).trimEnd()}..`);

/** A calling number as the limits count it: its canonical form, or its digits when it is not a number we know. */
export function phoneKey(raw: string): string {
  try {
    return normalizePhone(raw.startsWith('+') || raw.startsWith('0') ? raw : `+${raw}`);
  } catch {
    return `+${raw.replace(/\D/g, '').slice(0, 20)}`;
  }
}

/**
 * The public checks by USSD and SMS (docs/ussd-sms.md): a vehicle by plate or sticker code with the verdict its
 * certificate check gives, a driver by licence (approved or not, nothing more), reports of vehicles for the assembly,
 * STOP and START of reminders. Every text comes from the message catalogue, in the caller's language.
 */
@Injectable()
export class PublicChecksService {
  private readonly logger = new Logger('PublicChecks');
  private readonly messages: MessageCatalogue;

  constructor(
    private readonly certificates: CertificatesService,
    @Inject(PUBLIC_REGISTRY) private readonly registry: PublicRegistry,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(MESSAGE_SENDER) private readonly sender: MessageSender,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.messages = new MessageCatalogue(config.timeZone);
  }

  text(language: string, key: MessageKey, values?: MessageValues): string {
    return this.messages.format(language, key, values);
  }

  /** The language of the person whose record names this number (a driver's, else an owner's); English when none does. */
  async languageOf(phone: string): Promise<Language> {
    const stored = await this.registry.languageOfPhone(phoneKey(phone));
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  }

  /** Counts one step of a USSD session against the calling number's hourly limit (RATE_LIMITED past it). */
  async countUssdStep(phone: string): Promise<void> {
    await this.limits.consume('ussd-phone', phoneKey(phone));
  }

  /** The vehicle a caller typed: a check code (digits only) or a plate in any spelling. */
  private async findVehicle(typed: string): Promise<string | undefined> {
    const code = readCheckCode(typed);
    if (code) return this.registry.vehicleIdByCheckCode(code);
    const key = registrationSearchKey(typed);
    return key.length >= 3 ? this.registry.vehicleIdByPlateKey(key) : undefined;
  }

  /** The verdict on the vehicle typed (its sticker's, as the QR check gives it), or that the registry has none. */
  async vehicleVerdict(typed: string, language: string): Promise<string> {
    const id = await this.findVehicle(typed);
    const check = id ? await this.certificates.current(id) : undefined;
    if (!check) return this.text(language, 'check.vehicleNotFound', { typed: clip(typed.trim(), TYPED_CHARS) });
    const v = check.vehicle;
    const colourKey = v.color ? vehicleColour(v.color)?.key : undefined;
    const doc = (document: CertificateDocument) => {
      const d = check.documents.find((x) => x.document === document);
      return this.text(language, 'check.document', {
        state: !d ? 'none' : d.expired ? 'expired' : 'current',
        date: d?.expiresOn ?? check.checkedAt,
      });
    };
    // The sticker stands until the first of its documents ends.
    const until = check.documents.reduce<Date | undefined>(
      (first, d) => (!first || d.expiresOn < first ? d.expiresOn : first),
      undefined,
    );
    return this.text(language, 'check.vehicle', {
      plate: v.registrationNumber,
      make: clip(v.make ?? '', MAKE_CHARS),
      colour: colourKey ? this.text(language, `colour.${colourKey}` as MessageKey) : '',
      state: check.state === 'valid' && until ? 'valid' : 'not_valid',
      until: until ?? check.checkedAt,
      roadworthy: doc('roadworthy'),
      insurance: doc('insurance'),
      union: clip(v.transportUnion ?? this.text(language, 'check.noUnion'), UNION_CHARS),
      advice: this.text(language, 'check.advice', { state: check.state }),
    }).replace(/ {2,}/g, ' ');
  }

  /** Whether the licence typed is an approved driver's; nothing else of the driver is told. */
  async driverVerdict(typed: string, language: string): Promise<string> {
    const licence = typed.trim().toUpperCase().replace(/\s+/g, ' ');
    const shown = clip(licence, TYPED_CHARS);
    const driver =
      licence.length >= 3
        ? ((await this.registry.driverByLicence(licence)) ??
          (await this.registry.driverByLicence(licence.replace(/ /g, '-'))))
        : undefined;
    if (!driver) return this.text(language, 'check.driverNotFound', { licence: shown });
    return this.text(language, 'check.driver', { licence: shown, approved: driver.approved ? 'yes' : 'no' });
  }

  /** The plate as the registry spells it when it has the vehicle, else as typed (upper case, trimmed). */
  async reportedPlate(typed: string): Promise<{ plate: string; vehicleId?: string }> {
    const id = await this.registry.vehicleIdByPlateKey(registrationSearchKey(typed));
    const check = id ? await this.certificates.current(id) : undefined;
    return check
      ? { plate: check.vehicle.registrationNumber, vehicleId: id }
      : { plate: clip(typed.trim().toUpperCase().replace(/\s+/g, ' '), TYPED_CHARS) };
  }

  /** Keeps a report for the vehicle's assembly (audited); limited per calling number per day. */
  async report(typedPlate: string, reason: VehicleReportReason, phone: string, channel: 'ussd' | 'sms') {
    await this.limits.consume('vehicle-report-phone', phoneKey(phone));
    const { plate, vehicleId } = await this.reportedPlate(typedPlate);
    const check = vehicleId ? await this.certificates.current(vehicleId) : undefined;
    await this.registry.addReport({
      id: this.ids.next(),
      plate,
      vehicleId,
      assemblyId: check?.assemblyId,
      reason,
      channel,
      at: this.clock.now(),
    });
    return plate;
  }

  /** STOP (true) or START (false) from a number: reminders to it stop or resume. */
  async setOptedOut(phone: string, optedOut: boolean): Promise<void> {
    await this.registry.setOptedOut(phoneKey(phone), optedOut, this.clock.now());
  }

  /**
   * Texts an answer to the number that wrote: at most SMS_REPLIES_PER_PHONE_PER_HOUR to one number (then nothing is
   * sent, so the check cannot be used to text a stranger over and over), through the guarded sender (countries we
   * text, the hourly budget). Answers whether it went.
   */
  async reply(phone: string, text: string): Promise<boolean> {
    try {
      const to = phoneKey(phone);
      await this.limits.consume('sms-reply-phone', to);
      await this.sender.send({ to, text });
      return true;
    } catch (error) {
      // Over a limit, a number we do not text, a gateway that refused: the text was handled, the answer not sent.
      // Never a 500 for it: Hubtel would push the text again.
      this.logger.warn(`An SMS answer was not sent: ${(error as Error).message}`);
      return false;
    }
  }
}
