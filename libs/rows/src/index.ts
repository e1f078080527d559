// The persistence row of each aggregate the service writes and the importer loads: plain functions from a domain
// state to the table's columns, with no database client, so the Prisma adapters (apps/api/src/persistence) and the
// importer (tools/import) say the mapping once.
export * from './json';
export * from './vehicle-row';
export * from './vehicle-owner-row';
export * from './driver-row';
export * from './trip-rows';
export * from './transaction-row';
