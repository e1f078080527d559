import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  type Actor,
  type Clock,
  type DataStores,
  type Notice,
  type SecretHasher,
} from '@transport/domain';
import type { AppConfig } from '../config';
import type { EnforcementStore, EventLog, MessageSender } from '../core/ports';
import { APP_CONFIG, CLOCK, ENFORCEMENT_STORE, EVENT_LOG, MESSAGE_SENDER, SECRET_HASHER, STORES } from '../core/tokens';
import { noticeOfToken, noticeToken } from './notice-links';
import { noticeText } from '../i18n/sms-texts';
import { cedis, noticePage, withEvidence } from './notice-page';
import type { NoticePhotos } from '../core/officer-ports';
import { NOTICE_PHOTOS } from '../core/tokens';

/** What became of a notice's SMS to one person (logged as `event: "notice_sms"`). */
export type NoticeSmsOutcome = 'sent' | 'not_proven' | 'no_phone' | 'refused';

/** Notices after they are issued: who may read them, the SMS that tells the owner and driver, the public page. */
@Injectable()
export class NoticesService {
  constructor(
    @Inject(ENFORCEMENT_STORE) private readonly enforcement: EnforcementStore,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(SECRET_HASHER) private readonly hasher: SecretHasher,
    @Inject(MESSAGE_SENDER) private readonly messages: MessageSender,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'timeZone' | 'publicBaseUrl'>,
    @Inject(NOTICE_PHOTOS) private readonly photos: NoticePhotos,
  ) {}

  /** The notice, for the national admin, its assembly's staff and its officer; anyone else is told it is missing. */
  async visible(id: string, actor: Actor): Promise<Notice> {
    const notice = await this.enforcement.findNotice(id);
    const s = notice?.toState();
    if (!notice || !s) throw CommonErrors.notFound('notice', id);
    if (actor.role === 'admin' || s.assemblyId === actor.assemblyId || s.officerId === actor.id) return notice;
    throw CommonErrors.notFound('notice', id);
  }

  /** The public page's address for a notice (the service's own, with the signed token). */
  link(noticeId: string): string {
    return `${this.config.publicBaseUrl}/n/${noticeToken(this.hasher, noticeId)}`;
  }

  /**
   * Tells the owner (and the driver, if identified) of a new notice by SMS, through the guarded sender, under the
   * rules of every SMS: the owner only once the assembly verified them (as reminders and withdrawal notices). A
   * message that cannot go out is logged; the notice stands either way.
   */
  async tellIssued(notice: Notice): Promise<{ owner: NoticeSmsOutcome; driver?: NoticeSmsOutcome }> {
    const s = notice.toState();
    const vehicle = (await this.stores.vehicles.findById(s.vehicleId))?.toState();
    const owner = vehicle ? (await this.stores.owners.findById(vehicle.ownerId))?.toState() : undefined;
    const assembly = (await this.stores.assemblies.findById(s.assemblyId))?.toState().name ?? 'your assembly';
    const text = (language?: string) =>
      noticeText(
        {
          assembly,
          plate: vehicle?.registrationNumber ?? '',
          offences: s.offences.map((o) => `${o.code} ${o.description}`).join('; '),
          amount: cedis(notice.amountDue(this.clock.now())),
          due: s.dueAt,
          link: this.link(s.id),
        },
        this.config.timeZone,
        language,
      );
    // Each in their own language (English when they have none).
    const outcome = { owner: await this.send(owner?.phone, owner?.verified === true, text(owner?.language)) };
    const driver = s.driverId ? (await this.stores.drivers.findById(s.driverId))?.toState() : undefined;
    const result = driver
      ? { ...outcome, driver: await this.send(driver.phone, true, text(driver.language)) }
      : outcome;
    this.events.info('notice_sms', { notice: s.id, ...result });
    return result;
  }

  /** The public notice page for a token; a token that is not genuine is NOT_FOUND (the page says so). */
  async publicPage(token: string, payment?: string): Promise<string> {
    const id = noticeOfToken(this.hasher, token);
    const notice = id ? await this.enforcement.findNotice(id) : undefined;
    if (!notice) throw CommonErrors.notFound('notice', 'of this link');
    const s = notice.toState();
    const [vehicle, assembly] = await Promise.all([
      this.stores.vehicles.findById(s.vehicleId),
      this.stores.assemblies.findById(s.assemblyId),
    ]);
    const page = noticePage(
      {
        notice: s,
        plate: vehicle?.toState().registrationNumber ?? '',
        assembly: assembly?.toState().name ?? '',
        amountDue: notice.amountDue(this.clock.now()),
        serviceAddress: new URL(this.config.publicBaseUrl).host,
        contestAction: `/n/${token}/contest`,
        now: this.clock.now(),
        ...(payment !== undefined && { payment }),
      },
      this.config.timeZone,
    );
    return withEvidence(
      page,
      token,
      (await this.photos.list(s.id, 20)).map((p) => p.id),
    );
  }

  private async send(phone: string | undefined, proven: boolean, text: string): Promise<NoticeSmsOutcome> {
    if (!phone) return 'no_phone';
    if (!proven) return 'not_proven';
    try {
      await this.messages.send({ to: phone, text });
      return 'sent';
    } catch {
      return 'refused';
    }
  }
}
