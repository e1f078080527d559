import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  DomainError,
  Notice,
  OffenceCatalogue,
  parseGeoPoint,
  ReferenceErrors,
  type Actor,
  type AuditEntryInput,
  type Clock,
  type DataStores,
  type DomainEvent,
  type IdGenerator,
  type NoticeState,
  type OffenceCatalogueState,
  type OffenceTerms,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import type { EnforcementStore, EnforcementWork } from '../core/ports';
import { CLOCK, ENFORCEMENT_STORE, ID_GENERATOR, STORES } from '../core/tokens';

/** An offence as the officer's phone sends it. */
export interface OffenceReport {
  vehicleId: string;
  codes: string[];
  driverId?: string;
  /** For a nationwide officer: the assembly where the offence was made (whose catalogue applies). */
  assemblyId?: string;
  madeAt?: Date;
  madeWhere?: unknown;
  notes?: string;
}

/**
 * A notice's audit entries: one per event on the notice, and the same on its vehicle, so the vehicle's history
 * (GET /audit?entity=vehicle) shows every notice issued, paid, contested, decided, overdue or cancelled.
 */
export function noticeAuditEntries(
  events: readonly DomainEvent[],
  actor: Actor,
  before: NoticeState | null,
  after: NoticeState,
): AuditEntryInput[] {
  return events.flatMap((event) => [
    { entity: 'notice', entityId: after.id, action: event.type, actor, before, after, at: event.at },
    {
      entity: 'vehicle',
      entityId: after.vehicleId,
      action: event.type,
      actor,
      before: null,
      after: { notice: after.id, status: after.status, ...(event.data ?? {}) },
      at: event.at,
    },
  ]);
}

/**
 * Offence catalogues (each assembly's, kept by its admin, versioned) and the recording of offences by enforcers, each
 * of which issues a notice under the catalogue version of that moment (issue 47).
 */
@Injectable()
export class OffencesService {
  constructor(
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(ENFORCEMENT_STORE) private readonly enforcement: EnforcementStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** Publishes the next version of an assembly's catalogue: its admin (own assembly) or the national admin. */
  async publish(requested: string | undefined, offences: OffenceTerms[], actor: Actor): Promise<OffenceCatalogueState> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'manageOffences');
    const assemblyId = await this.assemblyFor(actor, requested, false);
    return this.enforcement.run(async (tx) => {
      const previous = await tx.latestCatalogue(assemblyId);
      const at = this.clock.now();
      const published = OffenceCatalogue.publish(assemblyId, offences, previous, actor.id, at);
      await tx.addCatalogue(published);
      await tx.audit.append([
        {
          entity: 'offenceCatalogue',
          entityId: assemblyId,
          action: 'OffenceCataloguePublished',
          actor,
          before: previous ?? null,
          after: published,
          at,
        },
      ]);
      return published;
    });
  }

  /** The current catalogue of an assembly (assembly staff: their own when none is named). */
  async current(requested: string | undefined, actor: Actor): Promise<OffenceCatalogueState> {
    const assemblyId = requested ?? actor.assemblyId;
    if (assemblyId === undefined) throw new DomainError('INVALID_VALUE', 'Name the assembly', 'assembly');
    const catalogue = await this.enforcement.latestCatalogue(assemblyId);
    if (!catalogue) throw CommonErrors.notFound('offence catalogue', assemblyId);
    return catalogue;
  }

  /**
   * An enforcer records an offence against any vehicle (and its driver, if identified): a notice under the current
   * catalogue of the officer's assembly, or, for a nationwide officer, of the assembly named.
   */
  async record(report: OffenceReport, actor: Actor): Promise<Notice> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'recordOffences');
    const officer = await this.stores.assemblyUsers.findById(actor.id);
    const assemblyId = await this.assemblyFor(actor, report.assemblyId, officer?.nationwide === true);
    const madeWhere = report.madeWhere === undefined ? undefined : parseGeoPoint(report.madeWhere, 'madeWhere');
    if (!(await this.stores.vehicles.findById(report.vehicleId)))
      throw ReferenceErrors.missing('vehicle', report.vehicleId, 'vehicle');
    if (report.driverId !== undefined && !(await this.stores.drivers.findById(report.driverId)))
      throw ReferenceErrors.missing('driver', report.driverId, 'driver');
    return this.enforcement.run(async (tx) => {
      const catalogue = await this.catalogueOf(tx, assemblyId);
      const now = this.clock.now();
      const notice = Notice.issue(
        {
          catalogue,
          codes: report.codes,
          vehicleId: report.vehicleId,
          ...(report.driverId !== undefined && { driverId: report.driverId }),
          officerId: actor.id,
          madeAt: report.madeAt ?? now,
          ...(madeWhere && { madeWhere }),
          ...(report.notes !== undefined && { notes: report.notes }),
        },
        this.ids,
        now,
      );
      await tx.addNotice(notice);
      await tx.audit.append(noticeAuditEntries(notice.pullEvents(), actor, null, notice.toState()));
      return notice;
    });
  }

  /**
   * The assembly whose catalogue applies. Assembly staff act in their own (naming another is 422 OTHER_ASSEMBLY),
   * except a nationwide officer, who names the assembly where the offence was made; the national admin names one.
   */
  private async assemblyFor(actor: Actor, requested: string | undefined, nationwide: boolean): Promise<string> {
    if (actor.role === 'assembly' && !nationwide) {
      if (requested !== undefined && requested !== actor.assemblyId)
        throw new DomainError(
          'OTHER_ASSEMBLY',
          "A task-force officer or assembly admin acts under their own assembly's catalogue only",
          'assembly',
        );
      return actor.assemblyId ?? '';
    }
    if (requested === undefined)
      throw new DomainError('INVALID_VALUE', 'Name the assembly (where the offence was made)', 'assembly');
    if (!(await this.stores.assemblies.findById(requested))) throw ReferenceErrors.missing('assembly', requested);
    return requested;
  }

  private async catalogueOf(tx: EnforcementWork, assemblyId: string): Promise<OffenceCatalogueState> {
    const catalogue = await tx.latestCatalogue(assemblyId);
    if (!catalogue)
      throw new DomainError('OFFENCE_NOT_FOUND', 'The assembly has published no offence catalogue yet', 'codes');
    return catalogue;
  }
}
