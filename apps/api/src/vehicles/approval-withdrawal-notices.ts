import { Inject, Injectable } from '@nestjs/common';
import type { DataStores, VehicleState } from '@transport/domain';
import type { AppConfig } from '../config';
import type { EventLog, MessageSender } from '../core/ports';
import { APP_CONFIG, EVENT_LOG, MESSAGE_SENDER, STORES } from '../core/tokens';
import { withdrawalText } from '../i18n/sms-texts';

export { withdrawalText };

/** What became of a withdrawal notice (logged as `event: "approval_withdrawn_sms"`). */
export type WithdrawalNoticeOutcome = 'sent' | 'not_proven' | 'no_owner' | 'refused';

/**
 * Tells a vehicle's owner by SMS that a failed inspection withdrew its approval and its sticker, as soon as it is
 * recorded. Under the rules of every message the service sends (docs/security.md, "SMS: what it costs and who may be
 * texted"): through the guarded sender (numbers of the allowed countries only, within the hourly budget), and only to
 * an owner the assembly verified, as reminders are (staff entered the number; nobody proved it is the owner's). Not
 * held by the quiet hours: it says the vehicle may no longer carry passengers under its sticker, which the owner needs
 * to know before the next trip, as a person needs a password link at once. Written in the owner's language. A notice that cannot go out (not
 * verified, refused, gateway down) is logged and counted; the inspection stands either way.
 */
@Injectable()
export class ApprovalWithdrawalNotices {
  constructor(
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(MESSAGE_SENDER) private readonly messages: MessageSender,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'timeZone'>,
  ) {}

  async notify(vehicle: VehicleState, failedItems: readonly string[], at: Date): Promise<WithdrawalNoticeOutcome> {
    const outcome = await this.send(vehicle, failedItems, at);
    this.events[outcome === 'sent' ? 'info' : 'warn']('approval_withdrawn_sms', { outcome, vehicle: vehicle.id });
    return outcome;
  }

  private async send(
    vehicle: VehicleState,
    failedItems: readonly string[],
    at: Date,
  ): Promise<WithdrawalNoticeOutcome> {
    const owner = (await this.stores.owners.findById(vehicle.ownerId))?.toState();
    if (!owner?.phone) return 'no_owner';
    if (!owner.verified) return 'not_proven';
    try {
      await this.messages.send({
        to: owner.phone,
        text: withdrawalText(vehicle, failedItems, at, this.config.timeZone, owner.language),
      });
      return 'sent';
    } catch {
      return 'refused';
    }
  }
}
