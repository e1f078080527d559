import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ANONYMOUS_ACTOR,
  CommonErrors,
  SYSTEM_ACTOR,
  DomainError,
  type Actor,
  type Clock,
  type DataStores,
  type Decision,
  type Notice,
  type SecretHasher,
  type UnitOfWork,
} from '@transport/domain';
import type { AppConfig } from '../config';
import { assertAssemblyDuty } from '../core/auth/duties';
import { AppError } from '../core/errors';
import type {
  EnforcementSettings,
  EnforcementStore,
  EventLog,
  MessageSender,
  ObjectStorage,
  RateLimits,
  StoredObject,
} from '../core/ports';
import {
  APP_CONFIG,
  CLOCK,
  ENFORCEMENT_STORE,
  EVENT_LOG,
  MESSAGE_SENDER,
  OBJECT_STORAGE,
  RATE_LIMITS,
  SECRET_HASHER,
  STORES,
  UNIT_OF_WORK,
} from '../core/tokens';
import { noticeCancelledText, noticeDecidedText } from '../i18n/sms-texts';
import { imageTypeOf, withoutLocation } from '../inspection-photos/image-bytes';
import { noticeOfToken, noticeToken } from './notice-links';
import { cedis } from './notice-page';
import { noticeAuditEntries } from './offences.service';

/** The most bytes of a contest's photo (a phone's photo; the form says so). */
export const CONTEST_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** The most open contests one list answers. */
const CONTESTS_MAX = 200;

/** What the owner sent from the notice page's form. */
export interface ContestForm {
  text?: unknown;
  photo?: Uint8Array;
}

/**
 * After a notice is issued: the owner's contest from the public page, a supervisor's decision or cancellation (never
 * the officer who recorded it), each audited on the notice and in its vehicle's history and told to the owner by SMS
 * after the commit; the open contests; the assembly's enforcement settings and the block they can put on approving or
 * renewing a vehicle with overdue notices.
 */
@Injectable()
export class NoticeDecisionsService {
  constructor(
    @Inject(ENFORCEMENT_STORE) private readonly enforcement: EnforcementStore,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(SECRET_HASHER) private readonly hasher: SecretHasher,
    @Inject(OBJECT_STORAGE) private readonly objects: ObjectStorage,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(MESSAGE_SENDER) private readonly messages: MessageSender,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'timeZone' | 'publicBaseUrl'>,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
  ) {}

  /**
   * The owner contests the notice a page's token names: a short text and optionally a photo (JPEG, PNG or WebP told by
   * its bytes, at most 5 MB, kept without the metadata that can say where it was taken). Counted per client address.
   */
  async contest(token: string, form: ContestForm, clientAddress: string): Promise<Notice> {
    await this.limits.consume('notice-contest-address', clientAddress);
    const id = noticeOfToken(this.hasher, token);
    const found = id ? await this.enforcement.findNotice(id) : undefined;
    if (!found || !id) throw CommonErrors.notFound('notice', 'of this link');
    if (typeof form.text !== 'string') throw new DomainError('INVALID_VALUE', 'Say why you contest the notice', 'text');
    // The rules first (within its days, contestable, once), so a refused contest stores no photo.
    found.contest(form.text, this.clock.now());
    // Not while a mobile-money prompt waits on the owner's phone: a payment confirmed on a contested notice could only
    // be refunded. Once it is settled or has failed, the owner may contest (the page says so).
    if (await this.uow.run((ctx) => ctx.notices.openPayment(id)))
      throw new DomainError(
        'NOTICE_PAYMENT_OPEN',
        'A payment of this notice is waiting for approval on the phone: contest it once that payment is approved or has failed',
      );
    const photo = form.photo && form.photo.length > 0 ? await this.storePhoto(id, Buffer.from(form.photo)) : undefined;
    return this.enforcement.run(async (tx) => {
      const notice = await tx.findNotice(id);
      if (!notice) throw CommonErrors.notFound('notice', id);
      const before = notice.toState();
      notice.contest(form.text as string, this.clock.now(), photo);
      const saved = await tx.updateNotice(notice);
      await tx.audit.append(noticeAuditEntries(notice.pullEvents(), OWNER, before, saved.toState()));
      return saved;
    });
  }

  /** A supervisor decides a contest: upheld, reduced (to `amount` pesewas) or cancelled, with a reason the owner sees. */
  async decide(
    id: string,
    decision: { outcome: Decision; reason: string; amount?: number },
    actor: Actor,
  ): Promise<Notice> {
    const saved = await this.change(id, actor, (notice, at) => notice.decide({ ...decision, by: actor.id }, at));
    await this.tell(saved);
    return saved;
  }

  /** A supervisor cancels a notice (not paid, not cancelled), with a reason the owner sees. */
  async cancel(id: string, reason: string, actor: Actor): Promise<Notice> {
    const saved = await this.change(id, actor, (notice, at) => notice.cancel(actor.id, reason, at));
    await this.tell(saved);
    return saved;
  }

  /** The contests awaiting a decision, oldest first: an assembly's staff their own, the national admin all or one. */
  async openContests(requested: string | undefined, actor: Actor): Promise<Notice[]> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'decideNotices');
    const assemblyId = actor.role === 'admin' ? requested : actor.assemblyId;
    if (actor.role !== 'admin' && requested !== undefined && requested !== actor.assemblyId)
      throw CommonErrors.notFound('assembly', requested);
    return this.enforcement.openContests(assemblyId, CONTESTS_MAX);
  }

  /** The photo of a notice's contest, for those who may decide it. */
  async contestPhoto(id: string, actor: Actor): Promise<StoredObject> {
    const notice = await this.decidable(id, actor);
    const key = notice.toState().contest?.photo;
    const photo = key ? await this.objects.get(key) : undefined;
    if (!photo) throw CommonErrors.notFound('photo of the contest of notice', id);
    return photo;
  }

  /**
   * Marks the notices past their due time overdue (the surcharge is owed from then), each in its own transaction,
   * audited on the notice and in its vehicle's history. Run by the scheduled job; a second run finds nothing to do.
   */
  async markOverdue(batch = 500): Promise<number> {
    const at = this.clock.now();
    let marked = 0;
    for (const id of await this.enforcement.pastDue(at, batch)) {
      const changed = await this.enforcement.run(async (tx) => {
        const notice = await tx.findNotice(id);
        // Paid, contested or marked by another run meanwhile: nothing to do.
        if (!notice || !notice.isOverdue(at) || notice.status === 'overdue') return false;
        const before = notice.toState();
        notice.markOverdue(at);
        const saved = await tx.updateNotice(notice);
        await tx.audit.append(noticeAuditEntries(notice.pullEvents(), SYSTEM_ACTOR, before, saved.toState()));
        return true;
      });
      if (changed) marked += 1;
    }
    return marked;
  }

  /** An assembly's enforcement settings: its own staff, or the national admin (another assembly's is a 404). */
  async settings(assemblyId: string, actor: Actor): Promise<EnforcementSettings> {
    await this.assemblyOf(assemblyId, actor);
    return this.enforcement.settings(assemblyId);
  }

  /** Sets an assembly's enforcement settings: its admin (duty manageOffences) or the national admin. Audited. */
  async setSettings(assemblyId: string, settings: EnforcementSettings, actor: Actor): Promise<EnforcementSettings> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'manageOffences');
    await this.assemblyOf(assemblyId, actor);
    await this.enforcement.run(async (tx) => {
      const before = await tx.settings(assemblyId);
      const at = this.clock.now();
      await tx.setSettings(assemblyId, settings, at);
      await tx.audit.append([
        {
          entity: 'assembly',
          entityId: assemblyId,
          action: 'AssemblyEnforcementSettingsChanged',
          actor,
          before,
          after: settings,
          at,
        },
      ]);
    });
    return settings;
  }

  private async assemblyOf(assemblyId: string, actor: Actor): Promise<void> {
    if (actor.role !== 'admin' && actor.assemblyId !== assemblyId) throw CommonErrors.notFound('assembly', assemblyId);
    if (!(await this.stores.assemblies.findById(assemblyId))) throw CommonErrors.notFound('assembly', assemblyId);
  }

  /** The notice, for a supervisor of its assembly (duty decideNotices) or the national admin; else 404 or 403. */
  private async decidable(id: string, actor: Actor): Promise<Notice> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'decideNotices');
    const notice = await this.enforcement.findNotice(id);
    if (!notice || (actor.role !== 'admin' && notice.toState().assemblyId !== actor.assemblyId))
      throw CommonErrors.notFound('notice', id);
    return notice;
  }

  private async change(id: string, actor: Actor, move: (notice: Notice, at: Date) => void): Promise<Notice> {
    // The officer who recorded it (who may read it) is told the notice's own rule, whatever their duties.
    const own = await this.enforcement.findNotice(id);
    if (own && own.toState().officerId === actor.id) move(own, this.clock.now());
    await this.decidable(id, actor);
    return this.enforcement.run(async (tx) => {
      const notice = await tx.findNotice(id);
      if (!notice) throw CommonErrors.notFound('notice', id);
      const before = notice.toState();
      move(notice, this.clock.now());
      const saved = await tx.updateNotice(notice);
      await tx.audit.append(noticeAuditEntries(notice.pullEvents(), actor, before, saved.toState()));
      return saved;
    });
  }

  private async storePhoto(noticeId: string, bytes: Buffer): Promise<string> {
    if (bytes.length > CONTEST_PHOTO_MAX_BYTES)
      throw new AppError('BODY_TOO_LARGE', `A photo is at most ${CONTEST_PHOTO_MAX_BYTES / 1024 / 1024} MB`);
    const type = imageTypeOf(bytes);
    if (!type)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The photo must be a JPEG, PNG or WebP image (told by its bytes)');
    const stripped = withoutLocation(bytes, type);
    if (!stripped)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `The photo is not a whole ${type.slice(6).toUpperCase()} image`);
    // Only the photo without its location is kept: nobody reading a contest needs where the owner took it.
    const sha256 = createHash('sha256').update(stripped).digest('hex');
    const key = `notice-contests/${noticeId}/${sha256}`;
    await this.objects.put(key, stripped, { contentType: type, sha256 });
    return key;
  }

  /** Tells the owner (once verified) and the identified driver of a decision or a cancellation; the page says why. */
  private async tell(notice: Notice): Promise<void> {
    const s = notice.toState();
    const vehicle = (await this.stores.vehicles.findById(s.vehicleId))?.toState();
    const owner = vehicle ? (await this.stores.owners.findById(vehicle.ownerId))?.toState() : undefined;
    const driver = s.driverId ? (await this.stores.drivers.findById(s.driverId))?.toState() : undefined;
    const assembly = (await this.stores.assemblies.findById(s.assemblyId))?.toState().name ?? 'your assembly';
    const link = `${this.config.publicBaseUrl}/n/${noticeToken(this.hasher, s.id)}`;
    const plate = vehicle?.registrationNumber ?? '';
    const text = (language?: string) =>
      s.decision && !s.cancellation
        ? noticeDecidedText(
            {
              assembly,
              plate,
              outcome: s.decision.outcome,
              amount: cedis(notice.amountDue(this.clock.now())),
              due: s.dueAt,
              link,
            },
            this.config.timeZone,
            language,
          )
        : noticeCancelledText({ assembly, plate, link }, this.config.timeZone, language);
    const sent: Record<string, string> = {};
    const people = [
      { who: 'owner', phone: owner?.phone, proven: owner?.verified === true, language: owner?.language },
      ...(driver ? [{ who: 'driver', phone: driver.phone, proven: true, language: driver.language }] : []),
    ];
    for (const person of people) {
      if (!person.phone) sent[person.who] = 'no_phone';
      else if (!person.proven) sent[person.who] = 'not_proven';
      else
        sent[person.who] = await this.messages
          .send({ to: person.phone, text: text(person.language) })
          .then(() => 'sent')
          .catch(() => 'refused');
    }
    this.events.info('notice_sms', { notice: s.id, status: s.status, ...sent });
  }
}

/** The owner contesting from the public page: no account, the notice's token is their proof. */
const OWNER: Actor = { ...ANONYMOUS_ACTOR, id: 'notice-page' };
