import { Inject, Injectable } from '@nestjs/common';
import type { Actor, Clock, DataStores } from '@transport/domain';
import type { AppConfig } from '../config';
import { assertAssemblyDuty } from '../core/auth/duties';
import type { OfficerRecords } from '../core/officer-ports';
import { APP_CONFIG, CLOCK, OFFICER_RECORDS, STORES } from '../core/tokens';
import { toCheckLogEntry } from '../enforcement/enforcement.dto';
import type { OfficerDayResponse } from './officer.dto';

/** The most notices and checks the day answers of each (an officer's shift is far fewer). */
export const DAY_LIMIT = 200;

/** Midnight of `now`'s day in the time zone, as an instant. */
export function startOfDay(now: Date, timeZone: string): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  // The wall-clock time there, read as if it were UTC, is ahead of `now` by the zone's offset.
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  const offset = wall - Math.floor(now.getTime() / 1000) * 1000;
  return new Date(Date.UTC(+parts.year, +parts.month - 1, +parts.day) - offset);
}

/** An enforcer's own day (issue 47, item 7): the notices they recorded and the checks they made since midnight. */
@Injectable()
export class OfficerDayService {
  constructor(
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(OFFICER_RECORDS) private readonly records: OfficerRecords,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'timeZone'>,
  ) {}

  async today(actor: Actor): Promise<OfficerDayResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'checkVehicles');
    const since = startOfDay(this.clock.now(), this.config.timeZone);
    const officer = (await this.stores.assemblyUsers.findById(actor.id))?.toState();
    const [notices, checks] = await Promise.all([
      this.records.noticesOf(actor.id, since, DAY_LIMIT),
      this.records.checksOf(actor.id, since, DAY_LIMIT),
    ]);
    const plates = new Map<string, string>();
    for (const id of new Set(notices.map((n) => n.toState().vehicleId)))
      plates.set(id, (await this.stores.vehicles.findById(id))?.toState().registrationNumber ?? '');
    return {
      nationwide: officer?.nationwide === true,
      since: since.toISOString(),
      notices: notices.map((n) => {
        const s = n.toState();
        return {
          _id: s.id,
          vehicle: s.vehicleId,
          registrationNumber: plates.get(s.vehicleId) ?? '',
          status: s.status,
          offences: s.offences.map((o) => o.code),
          fine: s.fine,
          madeAt: s.madeAt.toISOString(),
          createdAt: s.createdAt.toISOString(),
        };
      }),
      checks: checks.map(toCheckLogEntry),
    };
  }
}
