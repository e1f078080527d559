import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  DomainError,
  dueThreshold,
  dueWindow,
  inQuietHours,
  jurisdictionOf,
  reminderKey,
  SYSTEM_ACTOR,
  withinJurisdiction,
  type Actor,
  type Clock,
  type DataStores,
  type ReminderPolicy,
} from '@transport/domain';
import { reminderText } from '../i18n/sms-texts';
import type { AppConfig } from '../config';
import { AppError } from '../core/errors';
import type {
  EventLog,
  MessageSender,
  ReminderJob,
  ReminderRecord,
  ReminderStatus,
  ReminderStore,
} from '../core/ports';
import { APP_CONFIG, CLOCK, EVENT_LOG, MESSAGE_SENDER, REMINDERS, STORES } from '../core/tokens';
import type { ReminderPreferenceResponse } from './reminders.dto';

export const REMINDER_QUEUES = {
  /** The scheduled scan that claims the reminders due (cron, once across all instances). */
  scan: 'reminders-scan',
  /** One job per claimed reminder: sends its message. */
  send: 'reminders-send',
} as const;

const SEND_JOB: ReminderJob = {
  queue: REMINDER_QUEUES.send,
  singletonKey: (reminderId) => `reminder-${reminderId}`,
};

/**
 * Reminders before documents lapse: a roadworthy certificate or an insurance (to the vehicle's owner) and a driving
 * licence (to the driver), by SMS, once per document, expiry and threshold whatever the number of instances, never in
 * the quiet hours, never to someone who asked to stop. Sent and failed reminders are counted
 * (`transport_events_total{event="reminder"}`) and listed in the vehicle's or driver's history.
 */
@Injectable()
export class RemindersService {
  constructor(
    @Inject(REMINDERS) private readonly reminders: ReminderStore,
    @Inject(MESSAGE_SENDER) private readonly messages: MessageSender,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get policy(): ReminderPolicy {
    return this.config.reminders;
  }

  /**
   * Claims every reminder due now (each with its send job) and queues again those held by the quiet hours. Does
   * nothing in the quiet hours: what falls due at midnight goes out in the morning.
   */
  async scan(): Promise<{ claimed: number; released: number }> {
    const now = this.clock.now();
    if (!this.config.reminders.enabled || inQuietHours(now, this.policy)) return { claimed: 0, released: 0 };
    const window = dueWindow(now, this.policy);
    const [documents, claimed] = await Promise.all([
      this.reminders.expiring(window.from, window.to),
      this.reminders.claimed(window.from, window.to),
    ]);
    let count = 0;
    for (const document of documents) {
      const threshold = dueThreshold(document.expiry, now, this.policy);
      if (threshold === undefined || claimed.has(reminderKey(document, threshold))) continue;
      if (await this.reminders.claim(document, threshold, now, SEND_JOB)) count += 1;
    }
    return { claimed: count, released: await this.reminders.releaseHeld(now, SEND_JOB) };
  }

  /**
   * Sends one claimed reminder, if it still means something: held in the quiet hours, cancelled when the document
   * was renewed (another expiry), its person asked to stop, or a later threshold is due by now. A message the gateway
   * refused is retried by the queue; the last refusal marks the reminder failed. Answers the reminder's state.
   */
  async deliver(
    reminderId: string,
    attempt: { retryCount: number; retryLimit: number },
  ): Promise<ReminderStatus | undefined> {
    const reminder = await this.reminders.find(reminderId);
    if (!reminder || reminder.status !== 'pending') return reminder?.status;
    const now = this.clock.now();
    if (inQuietHours(now, this.policy) && this.config.reminders.enabled) {
      await this.reminders.settle(reminderId, { status: 'held', at: now });
      this.count(reminder, 'held');
      return 'held';
    }
    const target = await this.reminders.target(reminder);
    const reason = !this.config.reminders.enabled
      ? 'reminders disabled'
      : !target
        ? 'record removed'
        : target.stopped
          ? 'asked to stop'
          : !target.proven
            ? 'number not proven'
            : target.expiry?.getTime() !== reminder.expiry.getTime()
              ? 'renewed'
              : dueThreshold(reminder.expiry, now, this.policy) !== reminder.threshold
                ? 'no longer due'
                : undefined;
    if (reason || !target) {
      if (await this.reminders.settle(reminderId, { status: 'cancelled', reason, at: now }))
        this.count(reminder, 'cancelled', { reason });
      return 'cancelled';
    }
    if (!(await this.reminders.attempt(reminderId, now))) return (await this.reminders.find(reminderId))?.status;
    try {
      await this.messages.send({
        to: target.phone,
        text: reminderText({ ...reminder, subject: target.subject }, now, this.policy.timeZone, target.language),
      });
    } catch (error) {
      const refused = refusal(error);
      if (refused === 'held') {
        // Over the hourly SMS budget: held like the quiet hours, queued again by the next scan.
        await this.reminders.settle(reminderId, { status: 'held', reason: 'over budget', at: now });
        this.count(reminder, 'held', { reason: 'over budget' });
        return 'held';
      }
      if (refused === 'cancelled') {
        // A number we do not text (PHONE_COUNTRY_CODES): retrying would not change it.
        const reason = 'number not allowed';
        if (await this.reminders.settle(reminderId, { status: 'cancelled', reason, at: now }))
          this.count(reminder, 'cancelled', { reason });
        return 'cancelled';
      }
      if (attempt.retryCount >= attempt.retryLimit) {
        const reason = (error as Error).message;
        if (
          await this.reminders.settle(
            reminderId,
            { status: 'failed', reason, at: now },
            this.history(reminder, 'ReminderFailed', now, reason),
          )
        )
          this.count(reminder, 'failed', { reason });
      }
      throw error;
    }
    if (
      await this.reminders.settle(reminderId, { status: 'sent', at: now }, this.history(reminder, 'ReminderSent', now))
    )
      this.count(reminder, 'sent');
    return 'sent';
  }

  /** Records that an owner or a driver asked to stop (or to have again) the reminders. Staff of its assembly, admins. */
  async setStopped(
    entity: 'owner' | 'driver',
    id: string,
    stopped: boolean,
    actor: Actor,
  ): Promise<ReminderPreferenceResponse> {
    const record = entity === 'owner' ? await this.stores.owners.findById(id) : await this.stores.drivers.findById(id);
    withinJurisdiction(jurisdictionOf(actor), record, entity, id);
    const stoppedAt = await this.reminders.setStopped({ entity, id }, stopped, this.clock.now(), actor);
    if (stoppedAt === undefined) throw CommonErrors.notFound(entity, id);
    return { _id: id, remindersStopped: stoppedAt !== null, remindersStoppedAt: stoppedAt?.toISOString() ?? null };
  }

  /** The entry the vehicle's or driver's history shows (no phone number: the record shows whose it is). */
  private history(reminder: ReminderRecord, action: string, at: Date, reason?: string) {
    return {
      entity: reminder.entity,
      entityId: reminder.entityId,
      action,
      actor: SYSTEM_ACTOR,
      before: null,
      after: {
        document: reminder.document,
        expiry: reminder.expiry.toISOString(),
        daysBefore: reminder.threshold,
        ...(reason && { reason }),
      },
      at,
    };
  }

  private count(reminder: ReminderRecord, outcome: string, fields: Record<string, unknown> = {}): void {
    const line = {
      outcome,
      reminder: reminder.id,
      entity: reminder.entity,
      entityId: reminder.entityId,
      document: reminder.document,
      daysBefore: reminder.threshold,
      ...fields,
    };
    if (outcome === 'failed') this.events.warn('reminder', line);
    else this.events.info('reminder', line);
  }
}

/** What a sender's refusal makes of a reminder: held (over the budget), cancelled (a number we do not text), or retried. */
function refusal(error: unknown): 'held' | 'cancelled' | undefined {
  if (error instanceof AppError && error.code === 'SMS_BUDGET_EXHAUSTED') return 'held';
  if (error instanceof DomainError && error.code === 'PHONE_NOT_ALLOWED') return 'cancelled';
  return undefined;
}
