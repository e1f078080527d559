import { allChecksPassed, allPassed } from '@transport/domain';
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A `mongoexport` of the original service, in its shapes (ObjectIds, `__v`, references by id, its names and values:
 * `hyperAccount`, `"on-demand"`, `"direct"`, `"card"`), for trying the import and for its tests. Enumerated values
 * are spelled as people typed them (`Ghana Card`, `Cat. B`, `F`, `Ash`, `Mobile Money`, `paid`): each spelling is one
 * the importer's normaliser places (`spelled`). Files are JSON lines
 * in canonical Extended JSON, except regions (a JSON array, `--jsonArray`) and stations (relaxed Extended JSON), so
 * each form the importer reads is in every sample. Deterministic: the same sizes give the same files.
 */
export interface SampleSizes {
  regions: number;
  assemblies: number;
  assemblyusers: number;
  transportunions: number;
  stations: number;
  vehicleowners: number;
  drivers: number;
  vehicles: number;
  trips: number;
  transactions: number;
}

/** About 100,000 records across every collection. */
export const SAMPLE_100K: SampleSizes = {
  regions: 16,
  assemblies: 260,
  assemblyusers: 780,
  transportunions: 200,
  stations: 400,
  vehicleowners: 20_000,
  drivers: 10_000,
  vehicles: 15_000,
  trips: 40_000,
  transactions: 13_344,
};

/** The merchant the sample's transactions name (map it with `--merchant <this>=<a merchant here>`). */
export const SAMPLE_MERCHANT = '5a0000000000000000000001';

const BASE = Date.UTC(2024, 0, 1) / 1000;
/** A MongoDB-shaped id: 4 bytes of seconds, then a per-collection prefix and a counter. */
export const sampleId = (prefix: number, n: number) =>
  (BASE + n).toString(16).padStart(8, '0') + prefix.toString(16).padStart(4, '0') + n.toString(16).padStart(12, '0');

const oid = (id: string) => ({ $oid: id });
const at = (ms: number) => ({ $date: { $numberLong: String(ms) } });
const created = (n: number) => BASE * 1000 + n * 60_000;
const phone = (n: number) => `02${String(40_000_000 + (n % 60_000_000)).padStart(8, '0')}`;

const PREFIX = {
  regions: 1,
  assemblies: 2,
  assemblyusers: 3,
  transportunions: 4,
  stations: 5,
  vehicleowners: 6,
  drivers: 7,
  vehicles: 8,
  trips: 9,
  transactions: 10,
  services: 11,
  pricing: 12,
  staff: 13,
} as const;

function meta(prefix: number, n: number) {
  return {
    _id: oid(sampleId(prefix, n)),
    createdAt: at(created(n)),
    updatedAt: at(created(n) + 3_600_000),
    __v: n % 3,
  };
}

const pick = (n: number, count: number) => n % count;

/** The n-th record's spelling of a value: the values cycle with `n`, their spellings with `n / values`. */
const spelled = (n: number, values: readonly (readonly string[])[]) => {
  const spellings = values[n % values.length];
  return spellings[Math.floor(n / values.length) % spellings.length];
};

/** The documents of one collection, one at a time. */
export function* documents(collection: keyof SampleSizes, sizes: SampleSizes): Generator<object> {
  const ref = (c: keyof typeof PREFIX, n: number, count: number) => oid(sampleId(PREFIX[c], pick(n, count)));
  for (let n = 0; n < sizes[collection]; n++) {
    const m = meta(PREFIX[collection], n);
    switch (collection) {
      case 'regions':
        yield { ...m, name: `Region ${n}`, country: oid('5c0000000000000000000233') };
        break;
      case 'assemblies':
        yield {
          ...m,
          name: `Assembly ${n}`,
          region: ref('regions', n, sizes.regions),
          digitalAddress: `GA-${100 + (n % 900)}-${String(1000 + n).slice(-4)}`,
          type: spelled(n, [
            ['Metropolitan', 'Metropolitan Assembly'],
            ['Municipal', 'municipal assembly'],
            ['District', 'DISTRICT'],
          ]),
        };
        break;
      case 'assemblyusers':
        yield {
          ...m,
          assembly: ref('assemblies', n, sizes.assemblies),
          name: `Staff ${n}`,
          email: `staff${n}@assembly.gov.gh`,
          phone: phone(n),
          role: spelled(n, [
            ['inspector', 'Inspector'],
            ['approver', 'APPROVER'],
            ['admin', 'Administrator'],
          ]),
        };
        break;
      case 'transportunions':
        yield {
          ...m,
          status: spelled(n, [['active', 'Active', 'ACTIVE']]),
          name: `Union ${n}`,
          ...(n > 0 && n % 10 === 0 && { transportUnion: ref('transportunions', n - 1, sizes.transportunions) }),
          digitalAddress: `AK-${100 + (n % 900)}-${String(2000 + n).slice(-4)}`,
          contactNumber: phone(n + 7),
          email: `union${n}@example.com`,
          zones: [oid(sampleId(14, n % 50))],
        };
        break;
      case 'stations':
        yield {
          ...m,
          name: `Station ${n}`,
          transportUnions: [ref('transportunions', n, sizes.transportunions)],
          zones: [oid(sampleId(14, n % 50))],
          contactNumber: 302_000_000 + n,
          digitalAddress: `GA-${100 + (n % 900)}-${String(3000 + n).slice(-4)}`,
        };
        break;
      case 'vehicleowners':
        yield {
          ...m,
          name: `Owner ${n}`,
          phone: phone(n),
          email: `owner${n}@example.com`,
          idType: spelled(n, [
            ['ghana_card', 'Ghana Card', 'GHANA-CARD', 'national id'],
            ["Voter's ID", 'voter-id', 'VOTER ID'],
            ['Passport'],
            ["Driver's Licence"],
            ['SSNIT'],
          ]),
          idNumber: `GHA-${String(100_000_000 + n)}`,
          verified: n % 2 === 0,
          assembly: ref('assemblies', n, sizes.assemblies),
        };
        break;
      case 'drivers': {
        const approved = n % 4 === 0;
        yield {
          ...m,
          name: `Driver ${n}`,
          phone: phone(n + 1),
          email: `driver${n}@example.com`,
          license: `DL-${100_000 + n}`,
          licenseClass: spelled(n, [
            ['B', 'Cat. B', 'class b'],
            ['C', 'Class C'],
          ]),
          licenseExpiry: at(Date.UTC(2028, 0, 1) + n * 60_000),
          licenseIssueDate: at(Date.UTC(2020, 0, 1)),
          idType: spelled(n, [
            ['ghana_card', 'Ghana Card'],
            ['voter_id', 'Voters ID'],
          ]),
          idNumber: `GHA-D${100_000 + n}`,
          gender: spelled(n, [
            ['female', 'F', 'Female'],
            ['male', 'M', 'Male'],
          ]),
          online: false,
          busy: false,
          verified: n % 2 === 0,
          approved,
          ...(approved && {
            approvalChecklist: allChecksPassed(),
          }),
          activationKey: String(100_000 + (n % 900_000)),
          ...(n % 2 === 0 && { dateActivated: at(created(n) + 1_800_000) }),
          ownerID: ref('vehicleowners', n, sizes.vehicleowners),
          hyperAccount: `HA-${n}`,
          ...(n % 5 === 0 && { rating: 4.25 }),
          assembly: ref('assemblies', n, sizes.assemblies),
        };
        break;
      }
      case 'vehicles': {
        const inspected = n % 3 === 0;
        const approved = n % 6 === 0;
        const driver = approved && n % 12 === 0 && n / 12 < sizes.drivers / 4;
        yield {
          ...m,
          ownerID: ref('vehicleowners', n, sizes.vehicleowners),
          color: spelled(n, [['#FFD700', 'Gold', 'gold'], ['White', 'ffffff'], ['silver'], ['Ash'], ['Dark Blue']]),
          registrationNumber: `GR ${1000 + n}-24`,
          make: 'Toyota',
          model: 'Corolla',
          makeYear: at(Date.UTC(2015, 0, 1)),
          yearOfRegistration: at(Date.UTC(2018, 0, 1)),
          capacity: 4,
          grossWeight: 1600,
          netWeight: 1200,
          type: spelled(n, [['taxi', 'Taxi', 'TAXI', 'cab']]),
          fuelCapacity: 50,
          roadWorthyExpiryDate: at(Date.UTC(2027, 5, 1) + n * 60_000),
          insuranceExpiryDate: at(Date.UTC(2027, 8, 1) + n * 60_000),
          vin: `JT2BF22K1W0${String(100_000 + n).slice(-6)}`,
          inspected,
          approved,
          ...(inspected && {
            inspectionChecklist: allPassed(),
            inspectedBy: oid(sampleId(PREFIX.staff, 1)),
            dateInspected: at(created(n) + 600_000),
          }),
          ...(approved && { approvedBy: oid(sampleId(PREFIX.staff, 2)), dateApproved: at(created(n) + 900_000) }),
          ...(approved && n % 4 === 0 && { station: ref('stations', n, sizes.stations) }),
          ...(approved && n % 8 === 0 && { transportUnion: ref('transportunions', n, sizes.transportunions) }),
          // A driver approved in the sample: drivers n with n % 4 === 0 are approved.
          ...(driver && { driver: oid(sampleId(PREFIX.drivers, (n / 12) * 4)) }),
          assembly: ref('assemblies', n, sizes.assemblies),
        };
        break;
      }
      case 'trips': {
        const settled = n % 2 === 0;
        yield {
          ...m,
          service: {
            _id: oid(sampleId(PREFIX.services, n)),
            serviceID: `SRV-${n}`,
            type: spelled(n, [['on-demand', 'On Demand', 'taxi']]),
            driver: {
              _id: ref('drivers', n, sizes.drivers),
              name: `Driver ${pick(n, sizes.drivers)}`,
              phone: phone(pick(n, sizes.drivers) + 1),
              email: `driver${pick(n, sizes.drivers)}@example.com`,
              hyperAccount: `HA-${pick(n, sizes.drivers)}`,
              rating: 4.5,
            },
            vehicle: {
              _id: ref('vehicles', n, sizes.vehicles),
              registrationNumber: `GR ${1000 + pick(n, sizes.vehicles)}-24`,
              make: 'Toyota',
              model: 'Corolla',
              capacity: 4,
              type: 'taxi',
            },
            pricing: { _id: oid(sampleId(PREFIX.pricing, 1)), type: 'standard', pricePerKm: 2.5, pricePerMinute: 0.3 },
            passengers: 1 + (n % 4),
            amount: 25.5,
            ended: settled,
          },
          ticketNumber: `TKT-${n}`,
          estimatedPrice: 25.5,
          estimatedDistance: 8.2,
          ...(settled && { finalPrice: 27, finalDistance: 8.9, checkOutTime: at(created(n) + 1_200_000) }),
          cashPrice: 0,
          charges: 1.5,
          settledAmount: settled ? 27 : 0,
          discount: 0,
          settled,
          refundAmount: 0,
          refunded: false,
          paymentMethod: spelled(n, [
            ['card', 'Card'],
            ['cash', 'Cash'],
            ['momo', 'mobile-money', 'MoMo', 'Mobile Money'],
          ]),
          user: `rider-${n % 5000}`,
          pickupLocation: { type: 'Point', coordinates: [-0.187, 5.6037] },
          serviceDestination: { type: 'Point', coordinates: [-0.2, 5.61] },
          ...(settled && { droppedOffLocation: { type: 'Point', coordinates: [-0.201, 5.611] } }),
          checkedOut: settled,
          assembly: ref('assemblies', n, sizes.assemblies),
        };
        break;
      }
      case 'transactions': {
        const done = n % 4 !== 0;
        const reference = `ORD-${n}`;
        yield {
          ...m,
          amount: { $numberDecimal: '25.50' },
          fees: 0.5,
          status: done
            ? n % 10 === 1
              ? spelled(n, [['failed', 'failure']])
              : spelled(n, [['success', 'paid', 'Successful']])
            : 'pending',
          requestType: spelled(n, [['direct', 'Direct']]),
          merchant: oid(SAMPLE_MERCHANT),
          description: `Trip fare ${n}`,
          reference,
          callBackUrl: 'https://merchant.example.com/hubtel/callback',
          customerEmail: n % 2 ? `rider${n}@example.com` : '',
          customerName: n % 2 ? `Rider ${n}` : '',
          customerPhone: phone(n + 3),
          requestInfo: {
            Message: 'Transaction pending. Expect callback request for final state',
            ResponseCode: '0001',
            Data: {
              TransactionId: `7c${String(n).padStart(30, '0')}`,
              Description: `Trip fare ${n}`,
              ClientReference: `CR-${sampleId(PREFIX.transactions, n)}`,
              Amount: 25.5,
              Charges: 0.5,
              AmountAfterCharges: 25,
              AmountCharged: 26,
              DeliveryFee: 0,
            },
          },
          ...(done && {
            callBackInfo: {
              ResponseCode: n % 10 === 1 ? '2001' : '0000',
              Message: n % 10 === 1 ? 'failed' : 'success',
              Data: {
                Amount: 25.5,
                Charges: 0.5,
                AmountAfterCharges: 25,
                AmountCharged: 26,
                Description: 'The MTN Mobile Money payment has been approved and processed successfully.',
                ClientReference: `CR-${sampleId(PREFIX.transactions, n)}`,
                TransactionId: `7c${String(n).padStart(30, '0')}`,
                ExternalTransactionId: String(1_000_000 + n),
                OrderId: `7c${String(n).padStart(30, '0')}`,
              },
            },
            callBackTime: at(created(n) + 45_000),
          }),
        };
        break;
      }
    }
  }
}

/** Turns canonical Extended JSON into relaxed: `{"$date": "<ISO>"}` dates, plain numbers. */
export function relaxed(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(relaxed);
  const o = value as Record<string, unknown>;
  if ('$date' in o && typeof o.$date === 'object')
    return { $date: new Date(Number((o.$date as { $numberLong: string }).$numberLong)).toISOString() };
  if ('$numberDecimal' in o) return Number(o.$numberDecimal);
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, relaxed(v)]));
}

/** Writes the sample export into `folder`, one file per collection; resolves with the number of records. */
export async function writeSample(
  folder: string,
  sizes: SampleSizes,
  extra: Partial<Record<keyof SampleSizes, object[]>> = {},
): Promise<number> {
  mkdirSync(folder, { recursive: true });
  let total = 0;
  for (const collection of Object.keys(sizes) as Array<keyof SampleSizes>) {
    const array = collection === 'regions';
    const out = createWriteStream(join(folder, `${collection}.json`));
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    if (array) await write('[\n');
    let first = true;
    for (const doc of [...documents(collection, sizes), ...(extra[collection] ?? [])]) {
      const shaped = collection === 'stations' ? relaxed(doc) : doc;
      await write(`${array && !first ? ',\n' : ''}${JSON.stringify(shaped)}${array ? '' : '\n'}`);
      first = false;
      total += 1;
    }
    if (array) await write('\n]\n');
    out.end();
    await once(out, 'finish');
  }
  return total;
}
