import { Inject, Injectable } from '@nestjs/common';
import {
  assemblyScope,
  clearFraudFlag,
  CommonErrors,
  DomainError,
  jurisdictionOf,
  parseFraudThresholds,
  parseGeoPoint,
  type Actor,
  type Clock,
  type DataStores,
  type FraudThresholds,
  type GeoPoint,
  type Page,
  type PageRequest,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import type { FraudFlagFilter, FraudFlags } from '../core/fraud-ports';
import { CLOCK, FRAUD_FLAGS, STORES } from '../core/tokens';
import { toFraudFlagResponse, type FraudFlagResponse } from './fraud-flags.dto';

/**
 * The review of the signs of fraud (docs/fraud-flags.md): an assembly admin reads and clears its assembly's flags and
 * sets its thresholds (duty reviewFraudSigns); the national admin all of them, and the stations' locations.
 * Another assembly's flag or settings answer like missing ones (404).
 */
@Injectable()
export class FraudFlagsService {
  constructor(
    @Inject(FRAUD_FLAGS) private readonly flags: FraudFlags,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(
    filter: Omit<FraudFlagFilter, 'assemblyId'>,
    page: PageRequest,
    actor: Actor,
  ): Promise<Page<FraudFlagResponse>> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'reviewFraudSigns');
    const found = await this.flags.list({ ...filter, assemblyId: assemblyScope(jurisdictionOf(actor)) }, page);
    const plates = await this.plates(found.items.flatMap((f) => (f.vehicleId ? [f.vehicleId] : [])));
    return { ...found, items: found.items.map((f) => toFraudFlagResponse(f, f.vehicleId && plates.get(f.vehicleId))) };
  }

  /** Clears a flag with the admin's reason, audited on the flag (entity fraudFlag, action FraudFlagCleared). */
  async clear(id: string, reason: unknown, actor: Actor): Promise<FraudFlagResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'reviewFraudSigns');
    const flag = await this.flags.find(id);
    const scope = assemblyScope(jurisdictionOf(actor));
    if (!flag || (scope !== undefined && flag.assemblyId !== scope)) throw CommonErrors.notFound('fraud flag', id);
    const clearance = clearFraudFlag(flag.cleared ?? {}, { by: actor.id, reason }, this.clock.now());
    const cleared = { ...flag, cleared: clearance };
    const done = await this.flags.clear(id, clearance, {
      entity: 'fraudFlag',
      entityId: id,
      action: 'FraudFlagCleared',
      actor,
      before: { kind: flag.kind, cleared: null },
      after: {
        kind: flag.kind,
        cleared: { at: clearance.clearedAt, by: clearance.clearedBy, reason: clearance.reason },
      },
      at: clearance.clearedAt,
    });
    if (!done) throw new DomainError('FRAUD_FLAG_ALREADY_CLEARED', 'This flag is cleared already');
    const plate = flag.vehicleId ? (await this.plates([flag.vehicleId])).get(flag.vehicleId) : undefined;
    return toFraudFlagResponse(cleared, plate);
  }

  async thresholds(assemblyId: string, actor: Actor): Promise<FraudThresholds> {
    await this.assembly(assemblyId, actor);
    return this.flags.thresholds(assemblyId);
  }

  /** Sets an assembly's thresholds (its own admin's, or the national admin's), audited on the assembly. */
  async setThresholds(assemblyId: string, body: unknown, actor: Actor): Promise<FraudThresholds> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'reviewFraudSigns');
    const thresholds = parseFraudThresholds(body);
    await this.assembly(assemblyId, actor);
    const before = await this.flags.thresholds(assemblyId);
    await this.flags.setThresholds(assemblyId, thresholds, {
      entity: 'assembly',
      entityId: assemblyId,
      action: 'AssemblyFraudSettingsChanged',
      actor,
      before,
      after: thresholds,
      at: this.clock.now(),
    });
    return thresholds;
  }

  /** Sets where a station is (the national admin's, as stations are), audited on the station. */
  async setStationLocation(
    stationId: string,
    location: unknown,
    actor: Actor,
  ): Promise<{ station: string; location: GeoPoint }> {
    const point = parseGeoPoint(location, 'location');
    if (!(await this.stores.stations.findById(stationId))) throw CommonErrors.notFound('station', stationId);
    const before = (await this.flags.stationLocation(stationId)) ?? null;
    await this.flags.setStationLocation(stationId, point, {
      entity: 'station',
      entityId: stationId,
      action: 'StationLocationSet',
      actor,
      before: { location: before },
      after: { location: point },
      at: this.clock.now(),
    });
    return { station: stationId, location: point };
  }

  private async assembly(assemblyId: string, actor: Actor): Promise<void> {
    const scope = assemblyScope(jurisdictionOf(actor));
    if ((scope !== undefined && scope !== assemblyId) || !(await this.stores.assemblies.findById(assemblyId)))
      throw CommonErrors.notFound('assembly', assemblyId);
  }

  private async plates(vehicleIds: string[]): Promise<Map<string, string>> {
    const found = await Promise.all([...new Set(vehicleIds)].map((id) => this.stores.vehicles.findById(id)));
    return new Map(
      found.flatMap((v) => {
        const plate = v?.toState().registrationNumber;
        return v && plate ? [[v.id, plate] as const] : [];
      }),
    );
  }
}
