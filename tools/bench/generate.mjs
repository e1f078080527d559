// The benchmark's data set, generated inside PostgreSQL (INSERT ... SELECT generate_series), so a million rows take
// seconds, not a million round trips. Volumes at scale 1.0 are the ones measured in production-sized tests: 100,000
// vehicles, 1,000,000 owners, 50,000 drivers, 2,000,000 trips, 500,000 transactions. Every row is one the API can
// restore (valid enums, consistent flags), so both servers read the same rows the same way.
import { createHash } from 'node:crypto';

export const VOLUMES = {
  owners: 1_000_000,
  vehicles: 100_000,
  drivers: 50_000,
  trips: 2_000_000,
  transactions: 500_000,
};
const ASSEMBLIES = 10;
const STATIONS = 20;
const UNIONS = 5;

/** The ids of generated rows: a table letter, then the row number in hex (24 characters, like an ObjectId). */
const id = (letter, n) => `'${letter}' || lpad(to_hex(${n}), 23, '0')`;
export const rowId = (letter, n) => letter + n.toString(16).padStart(23, '0');

export const KEYS = {
  admin: 'tp_admin_benchmark-admin-key-000000000000000000000',
  merchant: 'tp_merchant_benchmark-merchant-key-000000000000000',
};
export const MERCHANT = rowId('m', 1);
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
/** The callback tokens of the first transactions (`tok-<n>`), for the acknowledgement rate. */
export const callbackToken = (n) => `benchmark-callback-token-${n}`;

const FIRST = ['Kwame', 'Ama', 'Kofi', 'Akosua', 'Yaw', 'Abena', 'Kojo', 'Efua', 'Kwesi', 'Adwoa', 'Fiifi', 'Esi'];
const LAST = [
  'Mensah',
  'Owusu',
  'Asante',
  'Boateng',
  'Yirenkyi',
  'Darko',
  'Quaye',
  'Tetteh',
  'Ansah',
  'Adjei',
  'Opoku',
];
const arr = (words) => `ARRAY[${words.map((w) => `'${w}'`).join(',')}]`;

/** The SQL that fills an empty, migrated database at `scale` (0.1: a tenth of every volume). */
export function generationSql(scale) {
  const n = Object.fromEntries(Object.entries(VOLUMES).map(([k, v]) => [k, Math.max(1, Math.round(v * scale))]));
  const checklist = JSON.stringify(
    Object.fromEntries(
      [
        'spareTire',
        'headlights',
        'tailLights',
        'turnSignals',
        'brakeLights',
        'fireExtinguisher',
        'emergencySignals',
        'seatBelts',
        'brakes',
        'licensePlate',
      ].map((item) => [item, true]),
    ),
  );
  const approval = JSON.stringify({ validLicense: true, hasSmartPhone: true, canUseMap: true, criminalRecord: true });
  const name = (i) =>
    `(${arr(FIRST)})[1 + (${i}) % ${FIRST.length}] || ' ' || (${arr(LAST)})[1 + ((${i}) / ${FIRST.length}) % ${LAST.length}]`;
  const staff = rowId('u', 1);
  const approver = rowId('u', 2);
  return `
    INSERT INTO regions (id, name, country, "updatedAt") VALUES ('${rowId('r', 1)}', 'Greater Accra', '${rowId('c', 1)}', now());
    INSERT INTO assemblies (id, name, "regionId", "digitalAddress", type, "updatedAt")
      SELECT ${id('a', 'a')}, 'Assembly ' || a, '${rowId('r', 1)}', 'GA-' || lpad(a::text, 3, '0') || '-0001', 'municipal', now()
      FROM generate_series(1, ${ASSEMBLIES}) a;
    INSERT INTO assembly_users (id, "assemblyId", name, email, phone, role, "updatedAt") VALUES
      ('${staff}', '${rowId('a', 1)}', 'Ama Inspector', 'inspector@bench.gov.gh', '+233244000001', 'inspector', now()),
      ('${approver}', '${rowId('a', 1)}', 'Kofi Approver', 'approver@bench.gov.gh', '+233244000002', 'approver', now());
    INSERT INTO transport_unions (id, status, name, "digitalAddress", "contactNumber", email, zones, "updatedAt")
      SELECT ${id('t', 'u')}, 'active', 'Union ' || u, 'GA-100-' || lpad(u::text, 4, '0'), '0302000' || lpad(u::text, 3, '0'),
             'union' || u || '@example.org', '{}', now()
      FROM generate_series(1, ${UNIONS}) u;
    INSERT INTO stations (id, name, "transportUnions", zones, "contactNumber", "digitalAddress", "updatedAt")
      SELECT ${id('s', 's')}, 'Station ' || s, ARRAY[${id('t', `1 + s % ${UNIONS}`)}], '{}', 302000000 + s,
             'GA-200-' || lpad(s::text, 4, '0'), now()
      FROM generate_series(1, ${STATIONS}) s;

    INSERT INTO vehicle_owners (id, name, phone, email, "idType", "idNumber", verified, "assemblyId", "createdAt", "updatedAt")
      SELECT ${id('o', 'i')}, ${name('i')}, '+23324' || lpad((i % 10000000)::text, 7, '0'), 'owner' || i || '@example.com',
             'ghana_card', 'GHA-' || lpad(i::text, 9, '0') || '-1', i % 3 = 0, ${id('a', `1 + i % ${ASSEMBLIES}`)},
             now() - interval '2 years' + i * interval '50 milliseconds', now()
      FROM generate_series(1, ${n.owners}) i;

    INSERT INTO drivers (id, name, phone, email, license, "licenseClass", "licenseExpiry", "licenseIssueDate", "idType",
                         "idNumber", gender, online, busy, verified, approved, "approvalChecklist", "approvedBy",
                         "dateApproved", "activationKeyHash", "activationKeyExpiresAt", "dateActivated", "ownerId",
                         "walletAccount", "ratingTotal", "ratingCount", "assemblyId", "createdAt", "updatedAt")
      SELECT ${id('d', 'i')}, ${name('i + 5')}, '+23320' || lpad((i % 10000000)::text, 7, '0'), 'driver' || i || '@example.com',
             'DL-' || i || '-2020', 'B', now() + interval '2 years', now() - interval '3 years', 'ghana_card', 'GHA-D' || i,
             CASE WHEN i % 2 = 0 THEN 'female' ELSE 'male' END,
             i % 4 = 0, i % 8 = 0, i % 2 = 0, i % 2 = 0,
             CASE WHEN i % 2 = 0 THEN '${approval}'::jsonb END, CASE WHEN i % 2 = 0 THEN '${approver}' END,
             CASE WHEN i % 2 = 0 THEN now() - interval '300 days' END,
             'scrypt$benchmark$not-a-key', now() - interval '1 year', CASE WHEN i % 2 = 0 THEN now() - interval '301 days' END,
             ${id('o', `1 + (i * 13) % ${n.owners}`)}, '23320' || lpad((i % 10000000)::text, 7, '0'),
             (i % 5) * 4 + 3, (i % 5), ${id('a', `1 + i % ${ASSEMBLIES}`)},
             now() - interval '1 year' + i * interval '10 seconds', now()
      FROM generate_series(1, ${n.drivers}) i;

    INSERT INTO vehicles (id, "ownerId", color, "registrationNumber", make, model, "makeYear", "yearOfRegistration", capacity,
                          "grossWeight", "netWeight", type, "fuelCapacity", "roadWorthyExpiryDate", "insuranceExpiryDate", vin,
                          inspected, approved, "inspectionChecklist", "inspectedBy", "dateInspected", "approvedBy",
                          "dateApproved", "stationLinked", "stationId", "transportUnionId", "driverId", "assemblyId",
                          "createdAt", "updatedAt")
      SELECT ${id('v', 'i')}, ${id('o', `1 + (i * 7) % ${n.owners}`)}, '#FFD700', 'GR ' || i || '-24',
             (ARRAY['Toyota','Hyundai','Kia','Nissan'])[1 + i % 4], (ARRAY['Corolla','Elantra','Rio','Sunny'])[1 + i % 4],
             now() - interval '9 years', now() - interval '8 years', 4, 1700, 1300, 'taxi', 50,
             now() + (i % 400 - 30) * interval '1 day', now() + (i % 500 - 20) * interval '1 day', 'VIN' || lpad(i::text, 14, '0'),
             i % 2 = 0, i % 4 = 0, CASE WHEN i % 2 = 0 THEN '${checklist}'::jsonb END,
             CASE WHEN i % 2 = 0 THEN '${staff}' END, CASE WHEN i % 2 = 0 THEN now() - interval '200 days' END,
             CASE WHEN i % 4 = 0 THEN '${approver}' END, CASE WHEN i % 4 = 0 THEN now() - interval '199 days' END,
             i % 4 = 0, CASE WHEN i % 4 = 0 THEN ${id('s', `1 + i % ${STATIONS}`)} END,
             CASE WHEN i % 4 = 0 THEN ${id('t', `1 + i % ${UNIONS}`)} END,
             CASE WHEN i % 8 = 0 THEN ${id('d', `1 + (i / 8) % ${n.drivers}`)} END, ${id('a', `1 + i % ${ASSEMBLIES}`)},
             now() - interval '2 years' + i * interval '10 seconds', now()
      FROM generate_series(1, ${n.vehicles}) i;

    INSERT INTO trips (id, "ticketNumber", "estimatedPrice", "estimatedDistance", "finalPrice", charges, "settledAmount",
                       discount, settled, "finalDistance", "paymentMethod", "user", "pickupLocation", "serviceDestination",
                       "droppedOffLocation", "checkedOut", "checkOutTime", "assemblyId", "createdAt", "updatedAt")
      SELECT ${id('f', 'i')}, 'TKT-' || i, 25, 8, CASE WHEN i % 3 > 0 THEN 26 END, 0, CASE WHEN i % 3 = 2 THEN 26 ELSE 0 END,
             0, i % 3 = 2, CASE WHEN i % 3 > 0 THEN 8.5 END, (ARRAY['cash','momo','card','wallet'])[1 + i % 4], 'passenger-' || (i % 5000),
             '{"type":"Point","coordinates":[-0.2166,5.556]}', '{"type":"Point","coordinates":[-0.2052,5.5701]}',
             CASE WHEN i % 3 > 0 THEN '{"type":"Point","coordinates":[-0.2052,5.5701]}'::jsonb END,
             i % 3 > 0, CASE WHEN i % 3 > 0 THEN now() - ((i * 17) % 525600) * interval '1 minute' + interval '30 minutes' END,
             ${id('a', `1 + i % ${ASSEMBLIES}`)}, now() - ((i * 17) % 525600) * interval '1 minute', now()
      FROM generate_series(1, ${n.trips}) i;
    INSERT INTO trip_services (id, "tripId", "serviceID", type, driver, vehicle, pricing, passengers, amount, ended)
      SELECT ${id('g', 'i')}, ${id('f', 'i')}, 'SRV-' || i, 'taxi',
             jsonb_build_object('id', ${id('d', `1 + i % ${n.drivers}`)}, 'name', 'Driver ' || (1 + i % ${n.drivers}),
                                'phone', '+233201000001', 'email', 'driver@example.com', 'walletAccount', '233201000001',
                                'rating', 4.5, 'approved', true, 'verified', true),
             jsonb_build_object('id', ${id('v', `1 + i % ${n.vehicles}`)}, 'registrationNumber', 'GR ' || (1 + i % ${n.vehicles}) || '-24',
                                'make', 'Toyota', 'model', 'Corolla', 'capacity', 4, 'type', 'taxi', 'approved', true),
             '{"id":"${rowId('p', 1)}","type":"standard","pricePerKm":2500000,"pricePerMinute":300000}', 1 + i % 3,
             CASE WHEN i % 3 > 0 THEN 26 ELSE 0 END, i % 3 > 0
      FROM generate_series(1, ${n.trips}) i;

    INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES ('${MERCHANT}', 'Benchmark Rides', 'whsec_benchmark', now());
    INSERT INTO transactions (id, "merchantId", amount, fees, status, "requestType", description, reference, "providerReference",
                              "providerTransactionId", "callBackUrl", "customerEmail", "customerName", "customerPhone",
                              "requestInfo", "callBackInfo", "callBackTime", "createdAt", "updatedAt")
      SELECT ${id('x', 'i')}, '${MERCHANT}', 25.5, 0.05, CASE WHEN i % 4 = 0 THEN 'pending' ELSE 'success' END, 'mobile_money',
             'Trip payment', 'REF-' || i, ${id('x', 'i')}, 'hub-' || i, 'https://merchant.example.com/cb', '', '',
             '+233244' || lpad((i % 1000000)::text, 6, '0'),
             jsonb_build_object('Message', 'Transaction pending. Expect callback request for final state', 'ResponseCode', '0001',
                                'Data', jsonb_build_object('TransactionId', 'hub-' || i, 'Description', 'Trip payment',
                                  'ClientReference', ${id('x', 'i')}, 'Amount', 25.5, 'Charges', 0.05, 'AmountAfterCharges', 25.45,
                                  'AmountCharged', 25.5, 'DeliveryFee', 0)),
             CASE WHEN i % 4 > 0 THEN jsonb_build_object('ResponseCode', '0000', 'Message', 'success',
                                'Data', jsonb_build_object('Amount', 25.5, 'Charges', 0.05, 'AmountAfterCharges', 25.45,
                                  'AmountCharged', 25.5, 'Description', 'ok', 'ClientReference', ${id('x', 'i')},
                                  'TransactionId', 'hub-' || i, 'ExternalTransactionId', 'ext-' || i, 'OrderId', 'ord-' || i)) END,
             CASE WHEN i % 4 > 0 THEN now() - (i % 525600) * interval '1 minute' + interval '1 minute' END,
             now() - (i % 525600) * interval '1 minute', now()
      FROM generate_series(1, ${n.transactions}) i;
    INSERT INTO payment_callback_tokens ("tokenHash", "transactionId", "createdAt")
      VALUES ${Array.from({ length: 4 }, (_, k) => `('${sha256(callbackToken(k * 4 + 4))}', '${rowId('x', k * 4 + 4)}', now())`).join(', ')};

    INSERT INTO api_keys (id, "keyHash", role, "principalId", label, "createdAt", "updatedAt") VALUES
      ('${rowId('k', 1)}', '${sha256(KEYS.admin)}', 'admin', '${rowId('z', 1)}', 'benchmark admin', now(), now()),
      ('${rowId('k', 2)}', '${sha256(KEYS.merchant)}', 'merchant', '${MERCHANT}', 'benchmark merchant', now(), now());
    ANALYZE;
  `;
}
