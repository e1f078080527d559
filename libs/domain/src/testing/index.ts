// Test helpers for other teams' tests and ours: deterministic ports and in-memory repositories that keep the same
// contract as the database adapters.
export { FixedClock, PlainTextHasher, SeededRandomSource, SequentialIdGenerator } from './fakes';
export { InMemoryCollection, newestFirst, type UniqueKey } from './in-memory-collection';
export * from './in-memory-repositories';
export * from './in-memory-unit-of-work';
// Fixtures: the one place tests get times, actor ids, valid inputs and the all-passed checklist from.
export * from './fixtures';
