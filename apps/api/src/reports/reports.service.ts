import { Inject, Injectable } from '@nestjs/common';
import { assemblyScope, jurisdictionOf, type Actor, type Page, type PageRequest } from '@transport/domain';
import { AppError } from '../core/errors';
import type { PublicRegistry, VehicleReportFilter } from '../core/public-registry';
import { PUBLIC_REGISTRY } from '../core/tokens';
import type { VehicleReportResponse } from './reports.dto';

/** The reports the public makes over USSD (docs/ussd-sms.md), for the assembly whose vehicle each is about. */
@Injectable()
export class ReportsService {
  constructor(@Inject(PUBLIC_REGISTRY) private readonly registry: PublicRegistry) {}

  /**
   * Newest first. Assembly staff read their own assembly's only (naming another is 403); the national admin reads
   * every report, those about a plate no vehicle has included.
   */
  async list(filter: VehicleReportFilter, page: PageRequest, actor: Actor): Promise<Page<VehicleReportResponse>> {
    const own = assemblyScope(jurisdictionOf(actor));
    if (own !== undefined && filter.assemblyId !== undefined && filter.assemblyId !== own) {
      throw new AppError('FORBIDDEN', "Assembly staff read their own assembly's vehicle reports only");
    }
    const found = await this.registry.reports({ ...filter, assemblyId: own ?? filter.assemblyId }, page);
    return {
      ...found,
      items: found.items.map((r) => ({
        _id: r.id,
        plate: r.plate,
        vehicle: r.vehicleId ?? null,
        assembly: r.assemblyId ?? null,
        reason: r.reason,
        channel: r.channel,
        createdAt: r.at.toISOString(),
      })),
    };
  }
}
