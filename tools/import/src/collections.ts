import {
  assertVehicleConsistent,
  Assembly,
  AssemblyUser,
  assertObjectId,
  Driver,
  failedApprovalItems,
  normalizeEmail,
  normalizePhone,
  oneOf,
  parseApprovalChecklist,
  parseGeoPoint,
  parseRecordedInspectionChecklist,
  unrecordedInspectionItems,
  PAYMENT_METHODS,
  Region,
  REQUEST_TYPES,
  requireText,
  SERVICE_TYPES,
  Station,
  TRANSACTION_STATUSES,
  TransportUnion,
  Vehicle,
  VehicleOwner,
  type CallbackPayload,
  type OriginalValue,
  type OriginalValues,
  type RequestInfo,
  type TripServiceState,
  type TripState,
} from '@transport/domain';
import { driverRow, transactionRow, tripRows, vehicleOwnerRow, vehicleRow } from '@transport/rows';
import {
  assemblyOf,
  date,
  type Doc,
  flag,
  ids,
  keepId,
  meta,
  number,
  object,
  optionalDate,
  optionalId,
  optionalNumber,
  optionalText,
  refuse,
  text,
} from './records';
import { exactMoney, optionalExactMoney } from './money';
import type { FieldType } from './caster';
import type { ValueKind } from './normaliser';

/** The tables the import writes, each keyed by `id`. */
export type Table =
  | 'regions'
  | 'assemblies'
  | 'assembly_users'
  | 'transport_unions'
  | 'stations'
  | 'vehicle_owners'
  | 'drivers'
  | 'vehicles'
  | 'trips'
  | 'trip_services'
  | 'transactions'
  | 'merchants';

/** A row to insert, in the table's own column names. */
export interface Row {
  table: Table;
  values: Record<string, unknown>;
}

/** A record this one points at, which must exist (imported before, or already here) for it to be imported. */
export interface Reference {
  table: Table;
  id: string;
  field: string;
  /**
   * The column holding the link, for a link the record can live without (a driver's owner, a vehicle's station):
   * a record naming one that is not here (deleted in the original) is imported with it unset, and listed.
   */
  unlink?: string;
}

export interface Mapped {
  id: string;
  rows: Row[];
  references: Reference[];
  /** Values the rules for new records require that this record of the original lacks: kept without, each listed. */
  without?: { field: string; reason: string; value?: unknown }[];
}

export interface MapOptions {
  /** Original merchant id -> merchant id here (`--merchant old=new`); an id not in it is kept as it is. */
  merchants: ReadonlyMap<string, string>;
}

export interface Collection {
  /** The collection's name in the report and on the command line. */
  name: string;
  /** File names (without extension, any case) taken as this collection: mongoexport names files by collection. */
  files: readonly string[];
  /** The original's fields this collection maps; any other top-level field is listed in the report as unknown. */
  known: readonly string[];
  /** The fields this collection maps inside its embedded objects, by path (`service.driver`); others are unknown. */
  nestedKnown?: Readonly<Record<string, readonly string[]>>;
  /** Fields of the original read and deliberately not kept (listed in the report with why, never dropped silently). */
  notCarried?: Readonly<Record<string, string>>;
  /**
   * The enumerated fields people typed, by path, and their kind: read through the operator's mapping and the
   * normaliser (value-reader.ts) before `map` sees the record, so `map` gets the domain's values.
   */
  values?: Readonly<Record<string, ValueKind>>;
  /**
   * The fields the original's Mongoose schema typed as dates, numbers, booleans or ids, by path: their values are
   * cast as Mongoose cast them on save (caster.ts) before the mapping reads them. `_id`'s times and `__v` are typed
   * for every collection (META_TYPES).
   */
  types?: Readonly<Record<string, FieldType>>;
  /** `folded`: the values the reader changed, by path, with what the original stored (see ValueReader.read). */
  map(doc: Doc, options: MapOptions, folded: Readonly<Record<string, OriginalValue>>): Mapped;
}

// mongoose-delete's fields: a record with `deleted: true` is not imported (docs/importing.md, soft-deleted records).
const META = ['_id', 'createdAt', 'updatedAt', '__v', 'deleted', 'deletedAt', 'deletedBy'];
export const META_TYPES: Readonly<Record<string, FieldType>> = {
  createdAt: 'date',
  updatedAt: 'date',
  __v: 'number',
  deleted: 'boolean',
  deletedAt: 'date',
};

const timestamps = (m: ReturnType<typeof meta>) => ({
  id: m.id,
  version: m.version,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

const ref = (table: Table, id: string | undefined | null, field: string, unlink?: string): Reference[] =>
  id ? [{ table, id, field, ...(unlink !== undefined && { unlink }) }] : [];

const regions: Collection = {
  name: 'regions',
  files: ['regions', 'region'],
  known: [...META, 'name', 'country'],
  map(doc) {
    const m = meta(doc);
    const s = Region.create(
      { name: text(doc, 'name'), country: text(doc, 'country') },
      keepId(m.id),
      m.createdAt,
    ).toState();
    return { id: m.id, rows: [{ table: 'regions', values: { ...s, ...timestamps(m) } }], references: [] };
  },
};

const assemblies: Collection = {
  name: 'assemblies',
  files: ['assemblies', 'assembly'],
  known: [...META, 'name', 'region', 'digitalAddress', 'type'],
  values: { type: 'assemblyType' },
  map(doc) {
    const m = meta(doc);
    const regionId = assertObjectId(doc.region, 'region');
    const s = Assembly.create(
      {
        name: text(doc, 'name'),
        regionId,
        digitalAddress: text(doc, 'digitalAddress'),
        type: text(doc, 'type'),
      },
      keepId(m.id),
      m.createdAt,
    ).toState();
    return {
      id: m.id,
      rows: [{ table: 'assemblies', values: { ...s, ...timestamps(m) } }],
      references: ref('regions', regionId, 'region'),
    };
  },
};

const assemblyUsers: Collection = {
  name: 'assemblyusers',
  files: ['assemblyusers', 'assemblyuser', 'assembly_users'],
  known: [...META, 'assembly', 'assemblyId', 'name', 'email', 'phone', 'role'],
  values: { role: 'role' },
  map(doc) {
    const m = meta(doc);
    const assemblyId = assemblyOf(doc) ?? refuse('INVALID_FIELD', 'assembly is required');
    const s = AssemblyUser.create(
      {
        assemblyId,
        name: text(doc, 'name'),
        email: text(doc, 'email'),
        phone: text(doc, 'phone'),
        role: text(doc, 'role'),
      },
      keepId(m.id),
      m.createdAt,
    ).toState();
    return {
      id: m.id,
      rows: [{ table: 'assembly_users', values: { ...s, ...timestamps(m) } }],
      references: ref('assemblies', assemblyId, 'assembly'),
    };
  },
};

const unions: Collection = {
  name: 'transportunions',
  files: ['transportunions', 'transportunion', 'unions', 'transport_unions'],
  known: [...META, 'status', 'name', 'transportUnion', 'digitalAddress', 'contactNumber', 'email', 'zones'],
  values: { status: 'unionStatus' },
  types: { transportUnion: 'id' },
  map(doc) {
    const m = meta(doc);
    const parent = optionalId(doc, 'transportUnion');
    const s = TransportUnion.create(
      {
        name: text(doc, 'name'),
        status: optionalText(doc, 'status'),
        ...(parent !== undefined && { parentUnionId: parent }),
        digitalAddress: text(doc, 'digitalAddress'),
        contactNumber: String(doc.contactNumber ?? ''),
        email: text(doc, 'email'),
        zones: ids(doc, 'zones'),
      },
      keepId(m.id),
      m.createdAt,
    ).toState();
    return { id: m.id, rows: [{ table: 'transport_unions', values: { ...s, ...timestamps(m) } }], references: [] };
  },
};

const stations: Collection = {
  name: 'stations',
  files: ['stations', 'station'],
  known: [...META, 'name', 'transportUnions', 'zones', 'contactNumber', 'digitalAddress'],
  types: { contactNumber: 'number' },
  map(doc) {
    const m = meta(doc);
    const s = Station.create(
      {
        name: text(doc, 'name'),
        transportUnions: ids(doc, 'transportUnions'),
        zones: ids(doc, 'zones'),
        contactNumber: number(doc, 'contactNumber'),
        digitalAddress: text(doc, 'digitalAddress'),
      },
      keepId(m.id),
      m.createdAt,
    ).toState();
    return { id: m.id, rows: [{ table: 'stations', values: { ...s, ...timestamps(m) } }], references: [] };
  },
};

const owners: Collection = {
  name: 'vehicleowners',
  files: ['vehicleowners', 'vehicleowner', 'owners', 'vehicle_owners'],
  known: [...META, 'name', 'phone', 'email', 'idType', 'idNumber', 'verified', 'assembly', 'assemblyId'],
  values: { idType: 'idType' },
  types: { name: 'name', phone: 'phone', verified: 'boolean', idNumber: 'card', assembly: 'id', assemblyId: 'id' },
  map(doc) {
    const m = meta(doc);
    const assemblyId = assemblyOf(doc);
    // Agents registered some owners by phone only: kept without an e-mail, and listed (a new owner needs one).
    const email = optionalText(doc, 'email');
    const s = VehicleOwner.keepFromHistory(
      {
        name: text(doc, 'name'),
        phone: text(doc, 'phone'),
        ...(email !== undefined && { email }),
        idType: text(doc, 'idType'),
        idNumber: text(doc, 'idNumber'),
        ...(assemblyId !== undefined && { assemblyId }),
      },
      keepId(m.id),
      m.createdAt,
    ).toState();
    return {
      id: m.id,
      rows: [
        {
          table: 'vehicle_owners',
          values: vehicleOwnerRow({ ...s, verified: flag(doc, 'verified'), ...timestamps(m) }),
        },
      ],
      references: ref('assemblies', assemblyId, 'assembly', 'assemblyId'),
      ...(email === undefined && {
        without: [
          { field: 'email', reason: 'no email in the original: imported without it (a new owner still needs one)' },
        ],
      }),
    };
  },
};

/** Never a valid hash: an imported driver's activation key is not carried over (docs/importing.md, the mapping). */
export const NO_ACTIVATION_KEY = 'imported:no-activation-key';

const notHashing = { hash: () => NO_ACTIVATION_KEY, verify: () => false };
const noRandom = { bytes: (length: number) => new Uint8Array(length) };

const drivers: Collection = {
  name: 'drivers',
  files: ['drivers', 'driver'],
  known: [
    ...META,
    'name',
    'phone',
    'email',
    'license',
    'licenseClass',
    'licenseExpiry',
    'licenseIssueDate',
    'idType',
    'idNumber',
    'gender',
    'online',
    'busy',
    'verified',
    'approved',
    'approvalChecklist',
    'approvedBy',
    'dateApproved',
    'dateActivated',
    'ownerID',
    'walletAccount',
    'hyperAccount',
    'rating',
    'assembly',
    'assemblyId',
  ],
  values: { idType: 'idType', licenseClass: 'licenseClass', gender: 'gender' },
  notCarried: {
    activationKey:
      'kept here only as a hash, and hashing every imported key would take minutes: an unactivated driver asks for a new key',
  },
  types: {
    name: 'name',
    phone: 'phone',
    licenseExpiry: 'date',
    licenseIssueDate: 'date',
    dateApproved: 'date',
    dateActivated: 'date',
    online: 'boolean',
    busy: 'boolean',
    verified: 'boolean',
    approved: 'boolean',
    rating: 'number',
    idNumber: 'card',
    ownerID: 'id',
    approvedBy: 'id',
    assembly: 'id',
    assemblyId: 'id',
  },
  map(doc) {
    const m = meta(doc);
    const ownerId = optionalId(doc, 'ownerID');
    const assemblyId = assemblyOf(doc);
    const walletAccount = optionalText(doc, 'walletAccount') ?? optionalText(doc, 'hyperAccount');
    const registered = Driver.register(
      {
        name: text(doc, 'name'),
        phone: text(doc, 'phone'),
        email: text(doc, 'email'),
        license: text(doc, 'license'),
        licenseClass: text(doc, 'licenseClass'),
        licenseExpiry: date(doc, 'licenseExpiry'),
        licenseIssueDate: date(doc, 'licenseIssueDate'),
        idType: text(doc, 'idType'),
        idNumber: text(doc, 'idNumber'),
        gender: text(doc, 'gender'),
        ...(ownerId !== undefined && { ownerId }),
        ...(walletAccount !== undefined && { walletAccount }),
        ...(assemblyId !== undefined && { assemblyId }),
      },
      { ids: keepId(m.id), random: noRandom, hasher: notHashing },
      // The licence may have been renewed after the record was made: its issue date is checked against the
      // record's last change (updatedAt), not its creation, which said "in the future" of a renewed licence.
      m.updatedAt,
    ).driver.toState();
    const approved = flag(doc, 'approved');
    const verified = flag(doc, 'verified');
    const dateActivated = optionalDate(doc, 'dateActivated');
    const checklist = doc.approvalChecklist === undefined ? undefined : parseApprovalChecklist(doc.approvalChecklist);
    if (approved && !checklist) refuse('INVALID_FIELD', 'an approved driver needs its approvalChecklist');
    if (approved && checklist && failedApprovalItems(checklist).length > 0)
      refuse('INVALID_FIELD', 'an approved driver passed every approvalChecklist item');
    const rating = optionalNumber(doc, 'rating');
    if (rating !== undefined && (rating < 0 || rating > 5)) refuse('INVALID_FIELD', 'rating must be 0 to 5');
    const values = driverRow({
      ...registered,
      online: flag(doc, 'online'),
      busy: flag(doc, 'busy'),
      verified,
      approved,
      approvalChecklist: checklist,
      approvedBy: optionalId(doc, 'approvedBy'),
      dateApproved: optionalDate(doc, 'dateApproved') ?? (approved ? m.updatedAt : undefined),
      dateActivated: dateActivated ?? (verified ? m.updatedAt : undefined),
      // Expired at once: the original's clear-text key is not carried, so an unactivated driver asks for a new one.
      activationKeyHash: NO_ACTIVATION_KEY,
      activationKeyExpiresAt: m.createdAt,
      // The original keeps only the average: it is stored as 100 ratings of that average (two decimals kept).
      ratingTotal: rating === undefined || rating === 0 ? 0 : Math.round(rating * 100),
      ratingCount: rating === undefined || rating === 0 ? 0 : 100,
      ...timestamps(m),
    });
    return {
      id: m.id,
      rows: [{ table: 'drivers', values }],
      references: [
        ...ref('vehicle_owners', ownerId, 'ownerID', 'ownerId'),
        ...ref('assemblies', assemblyId, 'assembly', 'assemblyId'),
      ],
    };
  },
};

const vehicles: Collection = {
  name: 'vehicles',
  files: ['vehicles', 'vehicle'],
  known: [
    ...META,
    'ownerID',
    'color',
    'registrationNumber',
    'make',
    'model',
    'makeYear',
    'yearOfRegistration',
    'capacity',
    'grossWeight',
    'netWeight',
    'type',
    'fuelCapacity',
    'roadWorthyExpiryDate',
    'insuranceExpiryDate',
    'vin',
    'inspected',
    'approved',
    'inspectionChecklist',
    'approvedBy',
    'dateApproved',
    'inspectedBy',
    'dateInspected',
    'station',
    'transportUnion',
    'driver',
    'assembly',
    'assemblyId',
  ],
  values: { color: 'color', type: 'vehicleType' },
  types: {
    makeYear: 'date',
    yearOfRegistration: 'date',
    roadWorthyExpiryDate: 'date',
    insuranceExpiryDate: 'date',
    dateInspected: 'date',
    dateApproved: 'date',
    capacity: 'number',
    grossWeight: 'number',
    netWeight: 'number',
    fuelCapacity: 'number',
    color: 'text',
    registrationNumber: 'plate',
    make: 'text',
    model: 'text',
    type: 'text',
    vin: 'text',
    inspected: 'boolean',
    approved: 'boolean',
    station: 'id',
    transportUnion: 'id',
    driver: 'id',
    inspectedBy: 'id',
    approvedBy: 'id',
    assembly: 'id',
    assemblyId: 'id',
  },
  map(doc) {
    const m = meta(doc);
    const ownerId = assertObjectId(doc.ownerID, 'ownerID');
    const assemblyId = assemblyOf(doc);
    const optional = <T>(field: string, read: (d: Doc, f: string) => T) =>
      doc[field] === undefined || doc[field] === null ? {} : { [field]: read(doc, field) };
    const s = Vehicle.register(
      {
        ownerId,
        ...optional('color', text),
        ...optional('registrationNumber', text),
        ...optional('make', text),
        ...optional('model', text),
        ...optional('makeYear', date),
        ...optional('yearOfRegistration', date),
        ...optional('capacity', number),
        ...optional('grossWeight', number),
        ...optional('netWeight', number),
        ...optional('type', text),
        ...optional('fuelCapacity', number),
        ...optional('roadWorthyExpiryDate', date),
        ...optional('insuranceExpiryDate', date),
        ...optional('vin', text),
        ...(assemblyId !== undefined && { assemblyId }),
      },
      keepId(m.id),
      m.createdAt,
    ).toState();
    const inspected = flag(doc, 'inspected');
    const approved = flag(doc, 'approved');
    // An older version of the original's checklist had fewer items: those are kept as not recorded (never a pass).
    const checklist =
      doc.inspectionChecklist == null ? undefined : parseRecordedInspectionChecklist(doc.inspectionChecklist);
    const unrecorded = checklist ? unrecordedInspectionItems(checklist) : [];
    if (inspected && !checklist) refuse('INVALID_FIELD', 'an inspected vehicle needs its inspectionChecklist');
    const driverId = optionalId(doc, 'driver');
    // The domain's invariants: approved implies inspected with no item failed (an item an older checklist did not have
    // is not recorded: the original approved it so); a linked driver implies approved.
    assertVehicleConsistent({ inspected, approved, inspectionChecklist: checklist, driverId });
    const stationId = optionalId(doc, 'station');
    const transportUnionId = optionalId(doc, 'transportUnion');
    const dateInspected = optionalDate(doc, 'dateInspected') ?? (inspected ? m.updatedAt : undefined);
    const values = vehicleRow({
      ...s,
      inspected,
      approved,
      inspectionChecklist: checklist,
      inspectedBy: optionalId(doc, 'inspectedBy'),
      dateInspected,
      // The original recorded an inspection when it received it (as migration 20261128070100 carries them over).
      inspectionReceivedAt: dateInspected,
      approvedBy: optionalId(doc, 'approvedBy'),
      dateApproved: optionalDate(doc, 'dateApproved') ?? (approved ? m.updatedAt : undefined),
      // `station: null` is "linked once, then unlinked", as the interface shows it.
      ...('station' in doc && { stationId: stationId ?? null }),
      transportUnionId,
      driverId,
      ...timestamps(m),
    });
    return {
      id: m.id,
      rows: [{ table: 'vehicles', values }],
      references: [
        ...ref('vehicle_owners', ownerId, 'ownerID'),
        ...ref('stations', stationId, 'station', 'stationId'),
        ...ref('transport_unions', transportUnionId, 'transportUnion', 'transportUnionId'),
        ...ref('drivers', driverId, 'driver', 'driverId'),
        ...ref('assemblies', assemblyId, 'assembly', 'assemblyId'),
      ],
      ...(unrecorded.length > 0 && {
        without: [
          {
            field: unrecorded.map((item) => `inspectionChecklist.${item}`).join(', '),
            reason:
              'not on the original’s older checklist: kept as not recorded (never a pass; approval needs a new inspection)' +
              (approved ? '; the vehicle is kept approved as the original had it' : ''),
          },
        ],
      }),
    };
  },
};

/** A trip's amount the original may leave out (charges, discount, ...): 0 when absent; exact, or the trip is refused. */
const amountOrZero = (doc: Doc, field: string) =>
  doc[field] === undefined || doc[field] === null ? 0 : exactMoney(doc, field);

function tripService(trip: Doc): TripServiceState {
  const s = object(trip, 'service');
  const id = assertObjectId(s._id, 'service._id');
  const driver = object(s, 'driver');
  const vehicle = object(s, 'vehicle');
  const pricing = object(s, 'pricing');
  const walletAccount = optionalText(driver, 'walletAccount') ?? optionalText(driver, 'hyperAccount');
  const rating = optionalNumber(driver, 'rating');
  const capacity = optionalNumber(vehicle, 'capacity');
  return {
    id,
    serviceID: requireText(s.serviceID, 'service.serviceID', 60),
    type: oneOf(SERVICE_TYPES, text(s, 'type'), 'service.type'),
    // A field the original left out stays out of the snapshot (toJson drops what is undefined).
    driver: {
      id: assertObjectId(driver._id, 'service.driver._id'),
      name: requireText(driver.name, 'service.driver.name', 120),
      phone: normalizePhone(text(driver, 'phone'), 'service.driver.phone'),
      email: normalizeEmail(text(driver, 'email'), 'service.driver.email'),
      walletAccount,
      rating,
    },
    vehicle: {
      id: assertObjectId(vehicle._id, 'service.vehicle._id'),
      registrationNumber: optionalText(vehicle, 'registrationNumber'),
      make: optionalText(vehicle, 'make'),
      model: optionalText(vehicle, 'model'),
      capacity,
      type: optionalText(vehicle, 'type'),
    },
    pricing: {
      id: assertObjectId(pricing._id, 'service.pricing._id'),
      type: requireText(pricing.type, 'service.pricing.type', 60),
      pricePerKm: exactMoney(pricing, 'pricePerKm'),
      pricePerMinute: exactMoney(pricing, 'pricePerMinute'),
    },
    passengers: number(s, 'passengers'),
    amount: exactMoney(s, 'amount'),
    ended: flag(s, 'ended'),
  };
}

const trips: Collection = {
  name: 'trips',
  files: ['trips', 'trip'],
  known: [
    ...META,
    'service',
    'ticketNumber',
    'estimatedPrice',
    'estimatedDistance',
    'finalPrice',
    'cashPrice',
    'charges',
    'settledAmount',
    'discount',
    'settled',
    'finalDistance',
    'refundAmount',
    'refunded',
    'paymentMethod',
    'user',
    'pickupLocation',
    'serviceDestination',
    'droppedOffLocation',
    'checkedOut',
    'checkOutTime',
    'assembly',
    'assemblyId',
  ],
  values: { 'service.type': 'serviceType', paymentMethod: 'paymentMethod' },
  nestedKnown: {
    service: ['_id', 'serviceID', 'type', 'driver', 'vehicle', 'pricing', 'passengers', 'amount', 'ended'],
    'service.driver': ['_id', 'name', 'phone', 'email', 'walletAccount', 'hyperAccount', 'rating'],
    'service.vehicle': ['_id', 'registrationNumber', 'make', 'model', 'capacity', 'type'],
    'service.pricing': ['_id', 'type', 'pricePerKm', 'pricePerMinute'],
    pickupLocation: ['type', 'coordinates'],
    serviceDestination: ['type', 'coordinates'],
    droppedOffLocation: ['type', 'coordinates'],
  },
  types: {
    estimatedPrice: 'number',
    estimatedDistance: 'number',
    finalPrice: 'number',
    cashPrice: 'number',
    charges: 'number',
    settledAmount: 'number',
    discount: 'number',
    finalDistance: 'number',
    refundAmount: 'number',
    settled: 'boolean',
    refunded: 'boolean',
    checkedOut: 'boolean',
    checkOutTime: 'date',
    'service.passengers': 'number',
    'service.amount': 'number',
    'service.ended': 'boolean',
    'service.driver.rating': 'number',
    'service.vehicle.capacity': 'number',
    'service.vehicle.registrationNumber': 'plate',
    'service.driver.name': 'name',
    'service.driver.phone': 'phone',
    'service.pricing.pricePerKm': 'number',
    'service.pricing.pricePerMinute': 'number',
    assembly: 'id',
    assemblyId: 'id',
  },
  map(doc) {
    const m = meta(doc);
    const assemblyId = assemblyOf(doc);
    const service = tripService(doc);
    const paymentMethod = optionalText(doc, 'paymentMethod');
    // Money is kept exactly (12.345, a 1.95% charge of 0.195). The final and cash prices may be unknown: one that
    // cannot be kept is left out and listed; the others are required (a made-up 0 would change what is due).
    const finalPrice = optionalExactMoney(doc, 'finalPrice', undefined);
    const cashPrice = optionalExactMoney(doc, 'cashPrice', undefined);
    const dropped = [finalPrice.dropped, cashPrice.dropped].filter((d) => d !== undefined);
    const state: TripState = {
      ticketNumber: requireText(doc.ticketNumber, 'ticketNumber', 60),
      service,
      estimatedPrice: exactMoney(doc, 'estimatedPrice'),
      estimatedDistance: number(doc, 'estimatedDistance'),
      finalPrice: finalPrice.value,
      cashPrice: cashPrice.value,
      charges: amountOrZero(doc, 'charges'),
      settledAmount: amountOrZero(doc, 'settledAmount'),
      discount: amountOrZero(doc, 'discount'),
      settled: flag(doc, 'settled'),
      finalDistance: optionalNumber(doc, 'finalDistance'),
      refundAmount: amountOrZero(doc, 'refundAmount'),
      refunded: flag(doc, 'refunded'),
      paymentMethod: paymentMethod === undefined ? undefined : oneOf(PAYMENT_METHODS, paymentMethod, 'paymentMethod'),
      user: requireText(doc.user, 'user', 120),
      pickupLocation: parseGeoPoint(doc.pickupLocation, 'pickupLocation'),
      serviceDestination: parseGeoPoint(doc.serviceDestination, 'serviceDestination'),
      droppedOffLocation:
        doc.droppedOffLocation == null ? undefined : parseGeoPoint(doc.droppedOffLocation, 'droppedOffLocation'),
      checkedOut: flag(doc, 'checkedOut'),
      checkOutTime: optionalDate(doc, 'checkOutTime'),
      assemblyId,
      ...timestamps(m),
    };
    if (state.refundAmount > state.settledAmount)
      refuse('INVALID_FIELD', 'refundAmount is more than the settled amount');
    const rows = tripRows(state);
    return {
      id: m.id,
      rows: [
        { table: 'trips', values: rows.trip },
        { table: 'trip_services', values: { ...rows.service, tripId: m.id } },
      ],
      references: ref('assemblies', assemblyId, 'assembly', 'assemblyId'),
      ...(dropped.length > 0 && { without: dropped }),
    };
  },
};

/** Provider fields the original keeps inside `requestInfo.Data`, where ours are columns. */
function providerIds(requestInfo: unknown, id: string) {
  const data = (requestInfo as { Data?: Record<string, unknown> } | undefined)?.Data;
  const clientReference = typeof data?.ClientReference === 'string' ? data.ClientReference : undefined;
  const transactionId = typeof data?.TransactionId === 'string' ? data.TransactionId : undefined;
  return { providerReference: clientReference ?? `imported-${id}`, providerTransactionId: transactionId };
}

/** The folded values of `fields` (those the domain keeps beside its own), or undefined when none was folded. */
function originalsOf(folded: Readonly<Record<string, OriginalValue>>, fields: readonly (keyof OriginalValues)[]) {
  const kept: OriginalValues = Object.fromEntries(
    fields.filter((f) => folded[f] !== undefined).map((f) => [f, folded[f]]),
  );
  return Object.keys(kept).length > 0 ? kept : undefined;
}

const jsonObject = (doc: Doc, field: string) => (doc[field] == null ? undefined : object(doc, field));

const transactions: Collection = {
  name: 'transactions',
  files: ['transactions', 'transaction', 'payments'],
  known: [
    ...META,
    'amount',
    'fees',
    'status',
    'requestType',
    'merchant',
    'description',
    'reference',
    'callBackUrl',
    'customerEmail',
    'customerName',
    'customerPhone',
    'requestInfo',
    'callBackInfo',
    'callBackTime',
  ],
  values: { status: 'transactionStatus', requestType: 'requestType' },
  types: { amount: 'number', fees: 'number', callBackTime: 'date' },
  map(doc, options, folded) {
    const m = meta(doc);
    const original = assertObjectId(doc.merchant, 'merchant');
    const merchantId = options.merchants.get(original) ?? original;
    const requestInfo = jsonObject(doc, 'requestInfo');
    const callBackUrl = text(doc, 'callBackUrl');
    if (!URL.canParse(callBackUrl)) refuse('INVALID_FIELD', 'callBackUrl must be a URL');
    // Exact to the millionth of a cedi (a 1.95% fee of 10.00 is 0.195); a fee that cannot be kept is left out, listed.
    const fees = optionalExactMoney(doc, 'fees', 0);
    const values = transactionRow({
      merchantId,
      amount: exactMoney(doc, 'amount'),
      fees: fees.value,
      status: oneOf(TRANSACTION_STATUSES, text(doc, 'status'), 'status'),
      requestType: oneOf(REQUEST_TYPES, text(doc, 'requestType'), 'requestType'),
      description: optionalText(doc, 'description') ?? '',
      reference: requireText(doc.reference, 'reference', 100),
      callBackUrl,
      customerEmail: optionalText(doc, 'customerEmail') ?? '',
      customerName: optionalText(doc, 'customerName') ?? '',
      customerPhone: text(doc, 'customerPhone'),
      // Kept exactly as received, in the original's shapes (not checked here): what operation 9 shows a merchant.
      requestInfo: requestInfo as RequestInfo | undefined,
      callBackInfo: jsonObject(doc, 'callBackInfo') as CallbackPayload | undefined,
      callBackTime: optionalDate(doc, 'callBackTime'),
      needsStatusCheck: false,
      anomalies: [],
      // The original's spelling of what was folded, answered by operation 9 as the original did (docs/importing.md).
      originalValues: originalsOf(folded, ['status', 'requestType']),
      ...providerIds(requestInfo, m.id),
      ...timestamps(m),
    });
    return {
      id: m.id,
      rows: [{ table: 'transactions', values }],
      references: ref('merchants', merchantId, 'merchant'),
      ...(fees.dropped && { without: [fees.dropped] }),
    };
  },
};

/** Every collection, in the order references need: each only points at those before it. */
export const COLLECTIONS: readonly Collection[] = [
  regions,
  assemblies,
  assemblyUsers,
  unions,
  stations,
  owners,
  drivers,
  vehicles,
  trips,
  transactions,
];

/**
 * The fields a mapping file may name, each with its kind: `collection.field` always, and the bare field where every
 * collection that has it reads it as the same kind (`idType`, but not `type` or `status`).
 */
export function mappableFields(): Map<string, ValueKind> {
  const fields = new Map<string, ValueKind>();
  const bare = new Map<string, ValueKind | null>();
  for (const c of COLLECTIONS)
    for (const [path, kind] of Object.entries(c.values ?? {})) {
      fields.set(`${c.name}.${path}`, kind);
      bare.set(path, bare.has(path) && bare.get(path) !== kind ? null : kind);
    }
  for (const [path, kind] of bare) if (kind) fields.set(path, kind);
  return fields;
}

/** The collection a file holds, from its name (`vehicles.json`, `vehicleowners.jsonl`, `Drivers.export.json`). */
export function collectionOfFile(fileName: string): Collection | undefined {
  const stem = fileName
    .toLowerCase()
    .replace(/\.(jsonl|ndjson|json)$/, '')
    .split('.')[0];
  return COLLECTIONS.find((c) => c.files.includes(stem));
}
