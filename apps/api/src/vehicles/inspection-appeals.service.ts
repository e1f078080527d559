import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  assemblyScope,
  auditEntriesFor,
  decideAppeal,
  jurisdictionOf,
  lodgeAppeal,
  withinJurisdiction,
  type Actor,
  type AuditEntryInput,
  type Clock,
  type DataStores,
  type InspectionRecord,
  type InspectionSettings,
  type UnitOfWork,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import { CLOCK, STORES, UNIT_OF_WORK } from '../core/tokens';
import { toInspectionRecordResponse, type InspectionRecordResponse } from './vehicle-responses.dto';

/** An appeal's step in the vehicle's history: the appeal before and after. */
function appealEntry(
  action: string,
  vehicleId: string,
  actor: Actor,
  before: InspectionRecord,
  after: InspectionRecord,
  at: Date,
): AuditEntryInput {
  return {
    entity: 'vehicle',
    entityId: vehicleId,
    action,
    actor,
    before: { inspection: before.id, appeal: before.appeal ?? null },
    after: { inspection: after.id, appeal: after.appeal ?? null },
    at,
  };
}

/**
 * A vehicle's inspection history, the appeals of its inspections, and each assembly's inspection settings (days to
 * fix, days to appeal): the rules are the domain's (inspection grades, appeals), the steps audited on the vehicle.
 */
@Injectable()
export class InspectionAppealsService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The vehicle's inspections, the last made first, each with its grades and appeal. */
  async inspections(id: string, actor: Actor): Promise<InspectionRecordResponse[]> {
    const vehicle = withinJurisdiction(jurisdictionOf(actor), await this.stores.vehicles.findById(id), 'vehicle', id);
    return (await this.stores.vehicles.listInspections(vehicle.id)).map(toInspectionRecordResponse);
  }

  /**
   * Lodges the owner's appeal of an inspection (any assembly staff, for the owner), within the assembly's appeal
   * days; audited on the vehicle.
   */
  async lodgeAppeal(
    id: string,
    inspectionId: string,
    grounds: unknown,
    actor: Actor,
  ): Promise<InspectionRecordResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'lodgeAppeal');
    const record = await this.uow.run(async (ctx) => {
      const { vehicle, record } = await this.inspectionOf(ctx, id, inspectionId, actor);
      const settings = await ctx.assemblies.inspectionSettings(vehicle.toState().assemblyId);
      const at = this.clock.now();
      const lodged = lodgeAppeal(record, { lodgedBy: actor.id, grounds }, at, settings.appealDays);
      await ctx.vehicles.saveAppeal(lodged);
      await ctx.audit.append([appealEntry('InspectionAppealLodged', vehicle.id, actor, record, lodged, at)]);
      return lodged;
    });
    return toInspectionRecordResponse(record);
  }

  /**
   * Decides an appeal (an approver who took no part): `upheld`, or `reinspection`, which opens a free re-inspection
   * of the failed items by another inspector. The decision and the vehicle's change are audited together.
   */
  async decideAppeal(
    id: string,
    inspectionId: string,
    decision: unknown,
    actor: Actor,
    expectedVersion?: number,
  ): Promise<InspectionRecordResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'decideAppeal');
    const record = await this.uow.run(async (ctx) => {
      const { vehicle, record } = await this.inspectionOf(ctx, id, inspectionId, actor);
      if (expectedVersion !== undefined && expectedVersion !== vehicle.version)
        throw CommonErrors.concurrentUpdate('vehicle', id);
      const at = this.clock.now();
      const decided = decideAppeal(record, { decidedBy: actor.id, decision }, at);
      await ctx.vehicles.saveAppeal(decided);
      const entries = [appealEntry('InspectionAppealDecided', vehicle.id, actor, record, decided, at)];
      if (decided.appeal?.decision === 'reinspection') {
        const settings = await ctx.assemblies.inspectionSettings(vehicle.toState().assemblyId);
        const before = vehicle.toState();
        vehicle.orderReinspection(record.id, record.inspectorId, at, settings.daysToFix);
        const saved = await ctx.vehicles.update(vehicle);
        entries.push(...auditEntriesFor('vehicle', vehicle.pullEvents(), actor, before, saved.toState()));
      }
      await ctx.audit.append(entries);
      return decided;
    });
    return toInspectionRecordResponse(record);
  }

  /** An assembly's inspection settings (days to fix, days to appeal): its own admin's, or the national admin's. */
  async setInspectionSettings(
    assemblyId: string,
    changes: Omit<InspectionSettings, 'photosRequired'> & { photosRequired?: boolean },
    actor: Actor,
  ): Promise<InspectionSettings> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'setInspectionRules');
    const scope = assemblyScope(jurisdictionOf(actor));
    if (scope !== undefined && scope !== assemblyId) throw CommonErrors.notFound('assembly', assemblyId);
    return this.uow.run(async (ctx) => {
      const before = await ctx.assemblies.inspectionSettings(assemblyId);
      const settings = { ...changes, photosRequired: changes.photosRequired ?? before.photosRequired };
      if (!(await ctx.assemblies.setInspectionSettings(assemblyId, settings)))
        throw CommonErrors.notFound('assembly', assemblyId);
      await ctx.audit.append([
        {
          entity: 'assembly',
          entityId: assemblyId,
          action: 'AssemblyInspectionSettingsChanged',
          actor,
          before,
          after: settings,
          at: this.clock.now(),
        },
      ]);
      return settings;
    });
  }

  async inspectionSettings(assemblyId: string, actor: Actor): Promise<InspectionSettings> {
    const scope = assemblyScope(jurisdictionOf(actor));
    if ((scope !== undefined && scope !== assemblyId) || !(await this.stores.assemblies.findById(assemblyId)))
      throw CommonErrors.notFound('assembly', assemblyId);
    return this.stores.assemblies.inspectionSettings(assemblyId);
  }

  /** A vehicle within the actor's jurisdiction and one of its inspections (else 404, as a missing one). */
  private async inspectionOf(ctx: DataStores, id: string, inspectionId: string, actor: Actor) {
    const vehicle = withinJurisdiction(jurisdictionOf(actor), await ctx.vehicles.findById(id), 'vehicle', id);
    const record = await ctx.vehicles.findInspection(vehicle.id, inspectionId);
    if (!record) throw CommonErrors.notFound('inspection', inspectionId);
    return { vehicle, record };
  }
}
