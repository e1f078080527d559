import { ObjectIdGenerator, type Clock, type RandomSource } from '../../src';
export { FixedClock, PlainTextHasher, SeededRandomSource } from '../../src/testing';

export const ObjectIdGeneratorFor = (clock: Clock, random: RandomSource) => new ObjectIdGenerator(clock, random);

/** Runs a promise expected to fail with a DomainError and returns its code. */
export async function failureCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
  throw new Error('expected the call to fail');
}
