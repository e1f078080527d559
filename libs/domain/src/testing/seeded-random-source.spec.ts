import { SeededRandomSource } from './fakes';

describe('SeededRandomSource', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    expect(new SeededRandomSource(42).bytes(16)).toEqual(new SeededRandomSource(42).bytes(16));
    expect(new SeededRandomSource(42).bytes(16)).not.toEqual(new SeededRandomSource(43).bytes(16));
  });

  it('does not get stuck on a zero seed', () => {
    const bytes = new SeededRandomSource(0).bytes(32);
    expect(bytes.some((b) => b !== 0)).toBe(true);
  });
});
