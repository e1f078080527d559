import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  farFromStation,
  passRateOutlier,
  photoReused,
  quickSuccession,
  stickerWithoutPhotos,
  type Clock,
  type DataStores,
  type FraudFlagDetails,
  type IdGenerator,
  type InspectionRecord,
  type PassCount,
  type VehicleState,
} from '@transport/domain';
import type { FraudFlags } from '../core/fraud-ports';
import type { InspectionPhotoRecord } from '../core/ports';
import { CLOCK, FRAUD_FLAGS, ID_GENERATOR, STORES } from '../core/tokens';

/** The days of inspections a pass rate is measured over (a rolling window: what an inspector does now). */
export const PASS_RATE_DAYS = 90;
/** The earlier uses of a photo's bytes read to find one on another inspection. */
const PHOTO_USES_READ = 20;

/** Where a flag points: the vehicle, the inspector and the inspection (its key) when known. */
interface FlagSubject {
  assemblyId: string;
  vehicleId?: string;
  inspectorId?: string;
  inspectionKey?: string;
}

/**
 * Raises the signs of fraud (docs/fraud-flags.md) when the work they concern is done: after an inspection is recorded,
 * a photo stored, a sticker printed, each after the work is committed. Never in the way: every method resolves,
 * whatever fails inside (the failure is logged), so a sign that cannot be raised never fails the work.
 */
@Injectable()
export class FraudSignsService {
  private readonly log = new Logger('FraudSigns');

  constructor(
    @Inject(FRAUD_FLAGS) private readonly flags: FraudFlags,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** After an inspection (or re-inspection) is stored: quick succession, far from the station, the pass rate. */
  async inspectionRecorded(record: InspectionRecord, vehicle: VehicleState): Promise<void> {
    await this.safely('inspection', async () => {
      const assemblyId = vehicle.assemblyId;
      if (!assemblyId) return;
      const thresholds = await this.flags.thresholds(assemblyId);
      const subject: FlagSubject = {
        assemblyId,
        vehicleId: record.vehicleId,
        inspectorId: record.inspectorId,
        ...(record.idempotencyKey !== undefined && { inspectionKey: record.idempotencyKey }),
      };
      const nearest = await this.flags.nearestInspectionBy(record.inspectorId, record.madeAt, record.id);
      const quick = quickSuccession(record.madeAt, nearest?.madeAt, thresholds.minMinutesBetween);
      if (quick)
        await this.raise(`quick-succession:${record.id}`, subject, {
          kind: 'quick-succession',
          minutes: quick.minutes,
          minMinutes: thresholds.minMinutesBetween,
          ...(nearest && { previousInspection: nearest.id }),
        });
      if (record.location && vehicle.stationId) {
        const far = farFromStation(
          record.location,
          await this.flags.stationLocation(vehicle.stationId),
          thresholds.maxKmFromStation,
        );
        if (far)
          await this.raise(`far-from-station:${record.id}`, subject, {
            kind: 'far-from-station',
            km: far.km,
            maxKm: thresholds.maxKmFromStation,
            station: vehicle.stationId,
          });
      }
      if (record.kind === 'inspection')
        await this.passRate(assemblyId, record.inspectorId, thresholds.minInspectionsForRate);
    });
  }

  /** After a photo is stored (not a replay): bytes sent before for another inspection. */
  async photoStored(photo: InspectionPhotoRecord, vehicle: VehicleState): Promise<void> {
    await this.safely('photo', async () => {
      if (!vehicle.assemblyId) return;
      const earlier = photoReused(photo, await this.flags.photoUses(photo.sha256, PHOTO_USES_READ));
      if (earlier)
        await this.raise(
          `photo-reused:${photo.id}`,
          {
            assemblyId: vehicle.assemblyId,
            vehicleId: photo.vehicleId,
            inspectorId: photo.inspectorId,
            inspectionKey: photo.inspectionKey,
          },
          {
            kind: 'photo-reused',
            sha256: photo.sha256,
            earlierVehicle: earlier.vehicleId,
            earlierInspectionKey: earlier.inspectionKey,
          },
        );
    });
  }

  /** After a sticker is printed: no photo of the vehicle's last inspection (once per approval: reprints add none). */
  async stickerPrinted(vehicle: VehicleState, approvedAt: Date): Promise<void> {
    await this.safely('sticker', async () => {
      if (!vehicle.assemblyId) return;
      const [last] = await this.stores.vehicles.listInspections(vehicle.id);
      const key = last?.idempotencyKey;
      const photos = key === undefined ? 0 : await this.flags.photosOf(vehicle.id, key);
      if (stickerWithoutPhotos(photos))
        await this.raise(
          `sticker-without-photos:${vehicle.id}:${approvedAt.toISOString()}`,
          {
            assemblyId: vehicle.assemblyId,
            vehicleId: vehicle.id,
            ...(last && { inspectorId: last.inspectorId }),
            ...(key !== undefined && { inspectionKey: key }),
          },
          { kind: 'sticker-without-photos', ...(key !== undefined && { inspectionKey: key }) },
        );
    });
  }

  /**
   * The inspector's pass rate over the last PASS_RATE_DAYS against the rest of the assembly's inspectors: an outlier
   * is flagged at most once a calendar month per inspector (its sign key), so each new inspection does not add one.
   */
  private async passRate(assemblyId: string, inspectorId: string, minInspections: number): Promise<void> {
    const now = this.clock.now();
    const counts = await this.flags.passCounts(assemblyId, new Date(now.getTime() - PASS_RATE_DAYS * 86_400_000));
    const own = counts.get(inspectorId);
    if (!own) return;
    const others: PassCount = [...counts]
      .filter(([id]) => id !== inspectorId)
      .reduce((sum, [, c]) => ({ passed: sum.passed + c.passed, total: sum.total + c.total }), { passed: 0, total: 0 });
    const outlier = passRateOutlier(own, others, minInspections);
    if (outlier)
      await this.raise(
        `pass-rate-outlier:${inspectorId}:${now.toISOString().slice(0, 7)}`,
        { assemblyId, inspectorId },
        {
          kind: 'pass-rate-outlier',
          direction: outlier.direction,
          passed: own.passed,
          total: own.total,
          othersPassed: others.passed,
          othersTotal: others.total,
        },
      );
  }

  private async raise(signKey: string, subject: FlagSubject, details: FraudFlagDetails): Promise<void> {
    await this.flags.raise({
      id: this.ids.next(),
      kind: details.kind,
      signKey,
      ...subject,
      details,
      raisedAt: this.clock.now(),
    });
  }

  private async safely(event: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.log.error(`The signs of fraud after a ${event} could not be raised: ${(error as Error).message}`);
    }
  }
}
