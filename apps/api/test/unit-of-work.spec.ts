import { ObjectIdGenerator, Vehicle, VehicleOwner, type InspectionChecklist } from '@transport/domain';
import { allPassed, FixedClock, SeededRandomSource } from '@transport/domain/testing';
import { unitOfWorkContract } from '@transport/domain/contracts';
import type { Actor, AuditLog, UnitOfWork } from '@transport/domain';
import { VehiclesService } from '../src/vehicles/vehicles.service';
import { openDatabase, type Database } from '../src/persistence/database';
import { PrismaAuditLog } from '../src/persistence/prisma-audit-log';
import { prismaRepositories } from '../src/persistence/prisma-repositories';
import { prismaStores, PrismaUnitOfWork } from '../src/persistence/prisma-unit-of-work';
import { sqlOn } from '../src/persistence/prisma-executor';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';
import { truncateAll } from './support/truncate';

const clock = new FixedClock('2026-06-01T09:00:00Z');
// Admin actors: this suite is about the unit of work, not about assembly duties (those are tested on their own).
const approver: Actor = { role: 'admin', id: '65a0000000000000000000a9' };

describeOnEachTier('use cases in one database transaction', (tier) => {
  let store: TierStore;
  let database: Database;
  let seed = 100;

  beforeAll(async () => {
    store = await openTierStore(tier);
    database = await openDatabase(store.config());
  });
  afterAll(async () => {
    await database?.close();
    await store?.dispose();
  });

  async function inspectedVehicle(): Promise<Vehicle> {
    await truncateAll(database.prisma);
    const ids = new ObjectIdGenerator(clock, new SeededRandomSource(seed++));
    const repos = prismaRepositories(database.prisma);
    const owner = await repos.owners.add(
      VehicleOwner.register(
        { name: 'Kofi', phone: '0244123456', email: 'kofi@example.com', idType: 'ghana_card', idNumber: 'GHA-1-2' },
        ids,
        clock.now(),
      ),
    );
    const vehicle = Vehicle.register(
      {
        ownerId: owner.id,
        registrationNumber: `GR ${seed}-24`,
        roadWorthyExpiryDate: new Date('2027-01-01'),
        insuranceExpiryDate: new Date('2027-01-01'),
      },
      ids,
      clock.now(),
    );
    await repos.vehicles.add(vehicle);
    return inspectVehicle({ uow: new PrismaUnitOfWork(database.prisma), clock }, vehicle.id, allPassed(), {
      role: 'admin',
      id: '65a0000000000000000000a8',
    });
  }

  // The vehicles service on a given unit of work; each change answers with the vehicle as stored afterwards.
  const vehicles = (uow: UnitOfWork) =>
    new VehiclesService(
      uow,
      prismaStores(database.prisma),
      clock,
      new ObjectIdGenerator(clock, new SeededRandomSource(1)),
    );
  const stored = async (id: string) => (await prismaRepositories(database.prisma).vehicles.findById(id))!;
  async function inspectVehicle(
    deps: { uow: UnitOfWork; clock: FixedClock },
    id: string,
    checklist: InspectionChecklist,
    actor: Actor,
  ): Promise<Vehicle> {
    await vehicles(deps.uow).inspect(id, checklist, actor);
    return stored(id);
  }
  async function approveVehicle(
    deps: { uow: UnitOfWork; clock: FixedClock },
    id: string,
    actor: Actor,
    expectedVersion?: number,
  ): Promise<Vehicle> {
    await vehicles(deps.uow).approve(id, actor, expectedVersion);
    return stored(id);
  }

  // The same promise the in-memory unit of work keeps: a use case's lists run in its transaction.
  unitOfWorkContract(`Prisma on ${tier}`, async () => {
    await truncateAll(database.prisma);
    return {
      uow: new PrismaUnitOfWork(database.prisma),
      stores: prismaRepositories(database.prisma),
      ensureMerchant: async (id: string) => {
        const now = new Date();
        await database.prisma.merchant.upsert({
          where: { id },
          update: {},
          create: { id, name: `Merchant ${id}`, signingSecret: 'secret', createdAt: now, updatedAt: now },
        });
      },
      close: async () => undefined,
    };
  });

  const auditRows = (entityId: string) =>
    database.prisma.auditEntry.findMany({ where: { entityId }, orderBy: { id: 'asc' } });

  it("reads inside a unit of work on the transaction's connection: single records and lists alike", async () => {
    const vehicle = await inspectedVehicle();
    const owner = vehicle.toState().ownerId;
    const uow = new PrismaUnitOfWork(database.prisma);
    // Both run in the transaction (through the pool instead, they would wait forever on the embedded database's one
    // connection, which the transaction holds).
    expect((await uow.run((c) => c.owners.findById(owner)))?.id).toBe(owner);
    expect((await uow.run((c) => c.vehicles.list({}, { limit: 1 }))).items.map((v) => v.id)).toEqual([vehicle.id]);
  });

  it("runs Kysely's statements on the client it is given, and leaves transactions to the unit of work", async () => {
    const vehicle = await inspectedVehicle();
    // A write through Kysely on a transaction's client counts its rows and is rolled back with the transaction.
    const changed = await database.prisma
      .$transaction(async (tx) => {
        const { numUpdatedRows } = await sqlOn(tx)
          .updateTable('vehicles')
          .set({ color: 'violet' })
          .where('id', '=', vehicle.id)
          .executeTakeFirstOrThrow();
        const inside = await sqlOn(tx).selectFrom('vehicles').select('color').where('id', '=', vehicle.id).execute();
        throw Object.assign(new Error('roll back'), { numUpdatedRows, inside });
      })
      .catch((error: { numUpdatedRows?: bigint; inside?: unknown }) => error);
    expect(changed).toMatchObject({ numUpdatedRows: 1n, inside: [{ color: 'violet' }] });
    expect((await stored(vehicle.id)).toState().color).toBeUndefined();
    await expect(
      sqlOn(database.prisma)
        .transaction()
        .execute(async () => 1),
    ).rejects.toThrow(/unit of work/);
  });

  it('writes the change and its audit entry together', async () => {
    const vehicle = await inspectedVehicle();
    const saved = await approveVehicle({ uow: new PrismaUnitOfWork(database.prisma), clock }, vehicle.id, approver);
    expect(saved.toState()).toMatchObject({ approved: true, approvedBy: approver.id, version: 2 });
    const audit = await auditRows(vehicle.id);
    expect(audit.map((a) => a.action)).toEqual(['VehicleInspected', 'VehicleApproved']);
    expect(audit[1]).toMatchObject({ actorRole: 'admin', actorId: approver.id, entity: 'vehicle' });
    expect(audit[1].before).toMatchObject({ approved: false, version: 1 });
    expect(audit[1].after).toMatchObject({ approved: true, version: 2 });
  });

  it('leaves nothing written when the audit write fails half-way', async () => {
    const vehicle = await inspectedVehicle();
    const uow = new PrismaUnitOfWork(database.prisma, (db): AuditLog => ({
      append: async (entries) => {
        await new PrismaAuditLog(db).append(entries); // the first write succeeds inside the transaction...
        throw new Error('injected failure after the vehicle and its audit entry were written');
      },
    }));
    await expect(approveVehicle({ uow, clock }, vehicle.id, approver)).rejects.toThrow(/injected failure/);
    const stored = await prismaRepositories(database.prisma).vehicles.findById(vehicle.id);
    expect(stored?.toState()).toMatchObject({ approved: false, version: 1 });
    expect(stored?.toState()).not.toHaveProperty('approvedBy');
    expect((await auditRows(vehicle.id)).map((a) => a.action)).toEqual(['VehicleInspected']);
  });

  it('refuses a change made on a stale revision (If-Match) and writes nothing', async () => {
    const vehicle = await inspectedVehicle();
    await expect(
      approveVehicle({ uow: new PrismaUnitOfWork(database.prisma), clock }, vehicle.id, approver, 0),
    ).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect((await auditRows(vehicle.id)).map((a) => a.action)).toEqual(['VehicleInspected']);
  });

  it('lets exactly one of several simultaneous approvals win: the record moves one revision, with one audit entry', async () => {
    const vehicle = await inspectedVehicle();
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () =>
        approveVehicle({ uow: new PrismaUnitOfWork(database.prisma), clock }, vehicle.id, approver).then(
          () => 'approved',
          (error: { code?: string; kind?: string }) => `${error.kind}:${error.code}`,
        ),
      ),
    );
    expect(attempts.filter((a) => a === 'approved')).toHaveLength(1);
    // Losers either lost the race on the revision or loaded the winner's result: both are conflicts.
    expect(
      attempts
        .filter((a) => a !== 'approved')
        .every((a) => a === 'conflict:CONCURRENT_UPDATE' || a === 'conflict:VEHICLE_ALREADY_APPROVED'),
    ).toBe(true);
    const stored = await prismaRepositories(database.prisma).vehicles.findById(vehicle.id);
    expect(stored?.version).toBe(2);
    expect((await auditRows(vehicle.id)).filter((a) => a.action === 'VehicleApproved')).toHaveLength(1);
  });

  it('gives the stale writer CONCURRENT_UPDATE when two copies of one revision are saved at once, and moves __v by one', async () => {
    const vehicle = await inspectedVehicle();
    const repos = prismaRepositories(database.prisma);
    const [a, b] = [(await repos.vehicles.findById(vehicle.id))!, (await repos.vehicles.findById(vehicle.id))!];
    a.approve(approver.id, clock.now());
    b.linkStation(null, clock.now());
    const outcomes = await Promise.all(
      [a, b].map((copy) =>
        repos.vehicles.update(copy).then(
          () => 'saved',
          (e: { code?: string }) => e.code,
        ),
      ),
    );
    expect(outcomes.sort()).toEqual(['CONCURRENT_UPDATE', 'saved']);
    const stored = (await repos.vehicles.findById(vehicle.id))!;
    expect(stored.version).toBe(vehicle.version + 1);
    // The winner's whole change is there and none of the loser's.
    const state = stored.toState();
    expect(
      state.approved && state.stationId === undefined
        ? 'approval won'
        : !state.approved && state.stationId === null
          ? 'unlink won'
          : 'mixed',
    ).not.toBe('mixed');
  });

  it('fails loudly on a stored row that breaks the rules, instead of returning a half-valid object', async () => {
    const vehicle = await inspectedVehicle();
    await database.prisma.$executeRawUnsafe(
      `UPDATE vehicles SET "inspectionChecklist" = NULL WHERE id = '${vehicle.id}'`,
    );
    await expect(prismaRepositories(database.prisma).vehicles.findById(vehicle.id)).rejects.toThrow(
      /cannot be mapped: inspected and inspectionChecklist disagree/,
    );
    await database.prisma.$executeRawUnsafe(
      `UPDATE vehicles SET "inspectionChecklist" = '{"brakes": "yes"}'::jsonb WHERE id = '${vehicle.id}'`,
    );
    await expect(prismaRepositories(database.prisma).vehicles.findById(vehicle.id)).rejects.toThrow(
      /cannot be mapped: inspectionChecklist needs/,
    );
    await database.prisma.$executeRawUnsafe(
      `UPDATE vehicles SET "inspectionChecklist" = NULL, inspected = false, type = 'spaceship' WHERE id = '${vehicle.id}'`,
    );
    await expect(prismaRepositories(database.prisma).vehicles.list({}, { limit: 5 })).rejects.toThrow(
      /cannot be mapped: type must be one of/,
    );
  });

  it('refuses to change or delete audit history, at the database', async () => {
    const vehicle = await inspectedVehicle();
    await expect(
      database.prisma.auditEntry.updateMany({ where: { entityId: vehicle.id }, data: { action: 'forged' } }),
    ).rejects.toThrow(/append-only/);
    await expect(database.prisma.auditEntry.deleteMany({ where: { entityId: vehicle.id } })).rejects.toThrow(
      /append-only/,
    );
    expect(await auditRows(vehicle.id)).toHaveLength(1);
  });
});
