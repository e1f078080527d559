import {
  DuplicateErrors,
  moneyFromText,
  oneOf,
  parseGeoPoint,
  PAYMENT_METHODS,
  Trip,
  type Page,
  type PageRequest,
  type TripRepository,
  type TripServiceState,
  type TripState,
  type Mutable,
} from '@transport/domain';
import { tripRows } from '@transport/rows';
import type { Trip as TripModel, TripService as ServiceModel } from '../generated/prisma/client';
import { inTransaction } from './in-transaction';
import { decimalText } from './prisma-transaction.repository';
import { mapped, MappingError } from './mapping-error';
import { assertOneUpdated } from './optimistic';
import { sqlOn, type PrismaExecutor, type WithMoneyText } from './prisma-executor';
import { inAssemblyScope, orderedPage } from './paging';
import { translateUniqueViolation } from './prisma-errors';

/** Rows from Prisma's models (money as Decimal) or from Kysely (money as text). */
type TripRow = TripModel | WithMoneyText<TripModel>;
type ServiceRow = ServiceModel | WithMoneyText<ServiceModel>;

/** A numeric money column (Prisma's Decimal, or pg's text on a raw read) as exact millionths of a cedi. */
const money = (value: Parameters<typeof decimalText>[0], field: string) => moneyFromText(decimalText(value), field);

/** A stored JSON object as its writer (`tripRows`) wrote it; what a row cannot do without is checked after. */
function object<T extends object>(table: string, id: string, field: string, value: unknown): Partial<T> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new MappingError(table, id, `${field} is not an object`);
  return value;
}

function serviceToDomain(row: ServiceRow): TripServiceState {
  const pricing = object<TripServiceState['pricing']>('trip_services', row.id, 'pricing', row.pricing);
  const driver = object<TripServiceState['driver']>('trip_services', row.id, 'driver', row.driver);
  const vehicle = object<TripServiceState['vehicle']>('trip_services', row.id, 'vehicle', row.vehicle);
  if (
    typeof pricing.pricePerKm !== 'number' ||
    typeof pricing.pricePerMinute !== 'number' ||
    typeof pricing.id !== 'string'
  ) {
    throw new MappingError('trip_services', row.id, 'pricing needs id, pricePerKm and pricePerMinute');
  }
  if (typeof driver.id !== 'string' || typeof vehicle.id !== 'string')
    throw new MappingError('trip_services', row.id, 'snapshots need ids');
  return {
    id: row.id,
    serviceID: row.serviceID,
    type: row.type,
    driver: driver as TripServiceState['driver'],
    vehicle: vehicle as TripServiceState['vehicle'],
    pricing: pricing as TripServiceState['pricing'],
    passengers: row.passengers,
    amount: money(row.amount, 'amount'),
    ended: row.ended,
  };
}

/** A trip row with its service row (read beside it, or included by Prisma); a list passes the two apart, uncopied. */
export function toDomain(row: TripRow, service: ServiceRow | null | undefined): Trip {
  return mapped('trips', row.id, () => {
    if (!service) throw new MappingError('trips', row.id, 'the trip has no service');
    const s: Mutable<TripState> = {
      id: row.id,
      ticketNumber: row.ticketNumber,
      service: serviceToDomain(service),
      estimatedPrice: money(row.estimatedPrice, 'estimatedPrice'),
      estimatedDistance: row.estimatedDistance,
      charges: money(row.charges, 'charges'),
      settledAmount: money(row.settledAmount, 'settledAmount'),
      discount: money(row.discount, 'discount'),
      settled: row.settled,
      refundAmount: money(row.refundAmount, 'refundAmount'),
      refunded: row.refunded,
      user: row.user,
      pickupLocation: parseGeoPoint(row.pickupLocation, 'pickupLocation'),
      serviceDestination: parseGeoPoint(row.serviceDestination, 'serviceDestination'),
      checkedOut: row.checkedOut,
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      // Every optional field is present, undefined when the column is NULL: states of one shape, which the code that
      // reads a page of them (the response, the CSV row) reads at the speed of one shape, not of several.
      finalPrice: row.finalPrice === null ? undefined : money(row.finalPrice, 'finalPrice'),
      cashPrice: row.cashPrice === null ? undefined : money(row.cashPrice, 'cashPrice'),
      finalDistance: row.finalDistance ?? undefined,
      paymentMethod:
        row.paymentMethod === null ? undefined : oneOf(PAYMENT_METHODS, row.paymentMethod, 'paymentMethod'),
      droppedOffLocation:
        row.droppedOffLocation === null ? undefined : parseGeoPoint(row.droppedOffLocation, 'droppedOffLocation'),
      checkOutTime: row.checkOutTime ?? undefined,
      assemblyId: row.assemblyId ?? undefined,
    };
    if (s.refundAmount > s.settledAmount) throw new MappingError('trips', row.id, 'refunds exceed the settled amount');
    return Trip.restore(s);
  });
}

/** Writes and single-record reads through Prisma's models; lists through Kysely on the same client (`sqlOn`). */
export class PrismaTripRepository implements TripRepository {
  constructor(
    private readonly db: PrismaExecutor,
    /** Where list pages read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
  ) {}

  async add(trip: Trip): Promise<Trip> {
    const { trip: data, service } = tripRows(trip.toState());
    try {
      const row = await this.db.trip.create({
        data: { ...data, service: { create: service } },
        include: { service: true },
      });
      return toDomain(row, row.service);
    } catch (error) {
      translateUniqueViolation(error, { ticketNumber: DuplicateErrors.tripTicket });
    }
  }

  async update(trip: Trip): Promise<Trip> {
    const s = trip.toState();
    const { trip: data, service } = tripRows(s);
    const { id, createdAt: _c, ...fields } = data;
    await inTransaction(this.db, async (tx) => {
      const { count } = await tx.trip.updateMany({
        where: { id, version: s.version },
        data: { ...fields, version: s.version + 1 },
      });
      await assertOneUpdated(count, 'trip', id, () => tx.trip.findUnique({ where: { id }, select: { id: true } }));
      const { id: _serviceId, ...serviceFields } = service;
      await tx.tripService.update({ where: { tripId: id }, data: serviceFields });
    });
    return Trip.restore({ ...s, version: s.version + 1 });
  }

  async findById(id: string): Promise<Trip | undefined> {
    const row = await this.db.trip.findUnique({ where: { id }, include: { service: true } });
    return row ? toDomain(row, row.service) : undefined;
  }

  /** from <= createdAt < to, newest first, on the (createdAt DESC, id DESC) index; then their services, in one query. */
  async listCreatedBetween(
    range: { from: Date; to: Date },
    page: PageRequest,
    assemblyId?: string,
  ): Promise<Page<Trip>> {
    const reads = sqlOn(this.lists);
    const trips = await orderedPage(
      reads,
      'trips',
      page,
      (db) => db.selectFrom('trips').selectAll(),
      (w) =>
        w.and([
          w('createdAt', '>=', range.from),
          w('createdAt', '<', range.to),
          ...(assemblyId === undefined ? [] : [w('assemblyId', '=', assemblyId)]),
        ]),
      (row) => row,
      inAssemblyScope(assemblyId),
    );
    const ids = trips.items.map((t) => t.id);
    const services =
      ids.length === 0 ? [] : await reads.selectFrom('trip_services').selectAll().where('tripId', 'in', ids).execute();
    const byTrip = new Map(services.map((s) => [s.tripId, s]));
    return {
      next: trips.next,
      total: trips.total,
      items: trips.items.map((t) => toDomain(t, byTrip.get(t.id))),
    };
  }
}
