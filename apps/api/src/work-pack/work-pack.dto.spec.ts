import { gzipSync } from 'node:zlib';
import { INSPECTION_ITEMS, VEHICLE_TYPES, type VehicleState } from '@transport/domain';
import { allPassed } from '@transport/domain/testing';
import { PACK_MAX_LIMIT, toWorkPackVehicle } from './work-pack.dto';

// The work pack's size for an assembly of 20,000 vehicles (docs/dashboard.md, "The work pack"): the bound the phone
// stores and a first fetch transfers, measured on vehicles shaped as the registry's are (a plate, a make and model, a
// hex colour, a type; a quarter awaiting inspection, one in ten failed on an item or two).

const MAKES = [
  ['Toyota', 'Corolla'],
  ['Nissan', 'Urvan'],
  ['Hyundai', 'Elantra'],
  ['Kia', 'Rio'],
  ['Mercedes-Benz', 'Sprinter'],
  ['Daewoo', 'Matiz'],
];
const REGIONS = ['GR', 'GW', 'GT', 'GE', 'GN', 'AS', 'WR', 'CR'];

function vehicle(n: number): VehicleState {
  const [make, model] = MAKES[n % MAKES.length];
  const checklist: Record<string, boolean> = { ...allPassed() };
  const kind = n % 20;
  if (kind < 2) checklist[INSPECTION_ITEMS[n % INSPECTION_ITEMS.length]] = false;
  if (kind === 0) checklist[INSPECTION_ITEMS[(n + 3) % INSPECTION_ITEMS.length]] = false;
  return {
    id: (0x65a000000000 + n).toString(16).padStart(24, '0'),
    ownerId: '65a000000000000000000001',
    registrationNumber: `${REGIONS[n % REGIONS.length]} ${1000 + (n % 9000)}-${10 + (n % 16)}`,
    make,
    model,
    color: ['#FFFFFF', '#C0C0C0', '#000000', '#FFD700', '#1E3A8A'][n % 5],
    type: VEHICLE_TYPES[n % 4],
    inspected: kind >= 5,
    approved: kind >= 10,
    ...(kind >= 5 || kind < 2 ? { inspectionChecklist: checklist } : {}),
    version: n % 12,
    createdAt: new Date(0),
  } as VehicleState;
}

describe('the work pack of an assembly of 20,000 vehicles', () => {
  const pack = Array.from({ length: 20_000 }, (_, n) => toWorkPackVehicle(vehicle(n)));
  const json = Buffer.from(JSON.stringify(pack));

  it('is at most 3.5 MB as JSON (what the phone encrypts and keeps), and a quarter of a megabyte sent gzip-encoded in ten pages', () => {
    const perVehicle = json.length / pack.length;
    const pages = Array.from({ length: Math.ceil(pack.length / PACK_MAX_LIMIT) }, (_, i) =>
      gzipSync(JSON.stringify(pack.slice(i * PACK_MAX_LIMIT, (i + 1) * PACK_MAX_LIMIT))),
    );
    const gzip = pages.reduce((n, p) => n + p.length, 0);
    // Printed for docs/dashboard.md.
    console.log(
      JSON.stringify({ vehicles: pack.length, bytes: json.length, perVehicle: Math.round(perVehicle), gzip }),
    );
    expect(json.length).toBeLessThan(3.5 * 1024 * 1024);
    expect(gzip).toBeLessThan(256 * 1024);
    expect(Math.ceil(pack.length / PACK_MAX_LIMIT)).toBe(10);
    expect(pack.filter((v) => v.state === 'awaiting_inspection').length).toBeGreaterThan(0);
    expect(pack.filter((v) => v.failed).length).toBe(2000);
  });
});
