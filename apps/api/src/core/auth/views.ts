import { VEHICLE_SUMMARY_FIELDS } from '@transport/domain';
import { ROLES, type Role } from './principal';

/** Who reads a response: a key's role, or nobody (no key). */
export type Viewer = Role | 'anonymous';
export const VIEWERS: readonly Viewer[] = ['anonymous', ...ROLES];

/** The records whose fields depend on who reads them. */
export type ViewedResource = 'vehicle' | 'driver' | 'owner' | 'registeredDriver' | 'trip' | 'auditEntry' | 'searchHit';

/** Each field a viewer sees: `true` as stored, or a resource name: that record, in this viewer's view of it. */
type FieldSet = Readonly<Record<string, true | ViewedResource>>;
/** `all`: every field (nested records in their own view for the same viewer). */
type View = 'all' | FieldSet;

const fields = (names: string[], nested: Record<string, ViewedResource> = {}): FieldSet =>
  Object.fromEntries([...names.map((n) => [n, true] as const), ...Object.entries(nested)]);

/**
 * What the interface gives every record besides `_id`: its times and revision. They carry no personal data, and a
 * client of the original reads them on every record, public views included.
 */
const ENVELOPE = ['createdAt', 'updatedAt', '__v'];

/** A field's name on the wire: the interface's `_id` and `__v`, and a linked record by its own name. */
type WireName<F extends string> = F extends 'id'
  ? '_id'
  : F extends 'version'
    ? '__v'
    : F extends `${infer Linked}Id`
      ? Linked
      : F;
const wireName = <F extends string>(field: F) =>
  (field === 'id' ? '_id' : field === 'version' ? '__v' : field.replace(/Id$/, '')) as WireName<F>;

/** The fields of a vehicle's public view, as the wire names them. */
export type VehiclePublicField = WireName<(typeof VEHICLE_SUMMARY_FIELDS)[number]>;
/**
 * What a passenger checks before getting in: the taxi and whether it is approved. Exactly the fields of a vehicle's
 * summary (the domain's VEHICLE_SUMMARY_FIELDS, the envelope included), so a list for the public reads summaries only.
 */
export const VEHICLE_PUBLIC_FIELDS: readonly VehiclePublicField[] = VEHICLE_SUMMARY_FIELDS.map(wireName);
const VEHICLE_PUBLIC = fields([...VEHICLE_PUBLIC_FIELDS]);
/** The driver a passenger checks: a name and whether an assembly approved them. */
const DRIVER_PUBLIC = fields(['_id', 'name', 'approved', 'rating', ...ENVELOPE]);

/**
 * The one policy of who sees which fields of which record. Every response carrying one of these records goes through
 * it (the @View decorator on the route); the role x endpoint test walks every route's answer against it.
 *
 * - Anonymous callers and merchants: what a passenger needs to check a taxi or a driver; never contact details,
 *   identity documents, owner links, staff ids or live online/busy status.
 * - platform (the ride-hailing app's back end): what running trips needs (contact, wallet, online/busy, the driver a
 *   vehicle is linked to), never identity documents, licence numbers, owners or staff ids.
 * - assembly staff and admins: every field.
 * - registeredDriver: the answer to a registration or an activation, the same for every caller: the driver's own
 *   record (what they just sent); never the activation key (it goes to the driver's phone only) or the embedded owner.
 */
export const VIEWS: Readonly<Record<ViewedResource, Readonly<Record<Viewer, View>>>> = {
  vehicle: {
    anonymous: VEHICLE_PUBLIC,
    merchant: VEHICLE_PUBLIC,
    platform: fields([
      ...Object.keys(VEHICLE_PUBLIC),
      'makeYear',
      'yearOfRegistration',
      'grossWeight',
      'netWeight',
      'fuelCapacity',
      'roadWorthyExpiryDate',
      'insuranceExpiryDate',
      'vin',
      'inspectionChecklist',
      'dateApproved',
      'dateInspected',
      'driver',
    ]),
    assembly: 'all',
    admin: 'all',
  },
  driver: {
    anonymous: DRIVER_PUBLIC,
    merchant: DRIVER_PUBLIC,
    platform: fields([
      ...Object.keys(DRIVER_PUBLIC),
      'phone',
      'email',
      'licenseClass',
      'licenseExpiry',
      'gender',
      'language',
      'online',
      'busy',
      'verified',
      'dateActivated',
      'walletAccount',
    ]),
    assembly: 'all',
    admin: 'all',
  },
  owner: {
    anonymous: fields([]),
    merchant: fields([]),
    platform: fields([]),
    assembly: 'all',
    admin: 'all',
  },
  // A trip as the platform recorded it (with the driver and vehicle as they were then): for the roles that run or
  // oversee trips; nobody else may call those routes.
  trip: {
    anonymous: fields([]),
    merchant: fields([]),
    platform: 'all',
    assembly: 'all',
    admin: 'all',
  },
  // The audit log holds whole records before and after each change: admins, and assembly staff for the histories of
  // their own assembly's vehicles, drivers and owners (which they see whole; the route checks which records).
  auditEntry: {
    anonymous: fields([]),
    merchant: fields([]),
    platform: fields([]),
    assembly: 'all',
    admin: 'all',
  },
  // A registry search's hit names a record and its phone (GET /search): staff, within their jurisdiction, only.
  searchHit: {
    anonymous: fields([]),
    merchant: fields([]),
    platform: fields([]),
    assembly: 'all',
    admin: 'all',
  },
  registeredDriver: Object.fromEntries(VIEWERS.map((v) => [v, fields(ownFieldsOfDriver())])) as Record<Viewer, View>,
};

/** A driver's own fields (everything of the record but the embedded owner). */
function ownFieldsOfDriver(): string[] {
  return [
    '_id',
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
    'language',
    'online',
    'busy',
    'verified',
    'approved',
    'approvalChecklist',
    'dateActivated',
    'walletAccount',
    'rating',
    'assembly',
    'createdAt',
    'updatedAt',
    '__v',
  ];
}

/** The views lists can read as summaries (the public's fields of a vehicle or a driver, and nothing more). */
const SUMMARY_VIEWS = { vehicle: VEHICLE_PUBLIC, driver: DRIVER_PUBLIC } as const;

/**
 * Whether this viewer sees no more of a vehicle or driver than its summary (VehicleSummary, DriverSummary), so a list
 * for them need not restore whole records. The view interceptor still applies the view to what is read.
 */
export function seesSummaryOnly(resource: keyof typeof SUMMARY_VIEWS, viewer: Viewer): boolean {
  return VIEWS[resource][viewer] === SUMMARY_VIEWS[resource];
}

/** Whether this viewer's view of the record shows each of these fields; `all`: the whole record (every field). */
export function seesFields(resource: ViewedResource, viewer: Viewer, shown: readonly string[] | 'all'): boolean {
  const view = VIEWS[resource][viewer];
  return view === 'all' || (shown !== 'all' && shown.every((field) => field in view));
}

/** The viewer of a request: its key's role, or anonymous. */
export const viewerOf = (principal: { role: Role } | undefined): Viewer => principal?.role ?? 'anonymous';

/** A copier of one field set: the record's fields of the view, in the view's order, nested records in their own view. */
type Copier = (record: Readonly<Record<string, unknown>>, viewer: Viewer) => Record<string, unknown>;

/**
 * Each field set's copier, written once as one object literal (`{ "_id": r["_id"], ... }`): every record it copies
 * gets the same shape in one allocation, where copying field by field with computed names (as before) grew each
 * record through a dozen shapes (the view was about 50 µs of a public vehicle list's answer in a profile). The names written into it
 * are the view's own, fixed in this file (JSON.stringify quotes each), never a request's. A field the record lacks is
 * undefined in the copy, which JSON leaves out, as every response does.
 */
const COPIERS = new Map<FieldSet, Copier>();
function copierOf(view: FieldSet): Copier {
  let copy = COPIERS.get(view);
  if (!copy) {
    const fieldsOf = Object.entries(view).map(([key, rule]) => {
      const name = JSON.stringify(key);
      return rule === true
        ? `${name}: r[${name}]`
        : `${name}: r[${name}] === undefined ? undefined : nested(${JSON.stringify(rule)}, viewer, r[${name}])`;
    });
    copy = new Function('nested', `return (r, viewer) => ({ ${fieldsOf.join(', ')} });`)(viewOf) as Copier;
    COPIERS.set(view, copy);
  }
  return copy;
}

/**
 * A record as this viewer may see it: the fields of its view only (in the view's order), nested records in their own
 * view. (A viewer with `all` for a record has `all` for the records it embeds.)
 */
export function viewOf(resource: ViewedResource, viewer: Viewer, record: unknown): unknown {
  const view = VIEWS[resource][viewer];
  if (view === 'all' || record === null || typeof record !== 'object' || Array.isArray(record)) return record;
  return copierOf(view)(record as Record<string, unknown>, viewer);
}
