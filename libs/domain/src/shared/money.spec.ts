import fc from 'fast-check';
import {
  assertMoney,
  isWholePesewas,
  MAX_MONEY,
  MONEY_DECIMALS,
  moneyFromCedis,
  moneyFromText,
  moneyText,
  moneyToCedis,
  reportedMoney,
  sameReportedAmount,
} from './money';

/** Any amount the domain holds: whole millionths of a cedi up to the ceiling. */
const money = fc.integer({ min: 0, max: MAX_MONEY });

describe('exact money (millionths of a cedi)', () => {
  it('keeps a third decimal exactly: 1.95% of 10.00, 10.125, and the six decimals of 1.95% of 10.01', () => {
    expect(moneyFromCedis(0.195, 'fees')).toBe(195_000);
    expect(moneyFromCedis(10.125, 'amount')).toBe(10_125_000);
    expect(moneyFromCedis(0.195195, 'fees')).toBe(195_195);
    expect(moneyFromText('0.195', 'fees')).toBe(195_000);
    expect(moneyFromText('10.125000', 'amount')).toBe(10_125_000);
    expect(moneyFromText(' 25 ', 'amount')).toBe(25_000_000);
    expect(moneyFromText('25.', 'amount')).toBe(25_000_000);
  });

  it('shows every decimal an amount carries and at least two, rounding none', () => {
    expect(moneyText(25_500_000)).toBe('25.50');
    expect(moneyText(10_125_000)).toBe('10.125');
    expect(moneyText(195_195)).toBe('0.195195');
    expect(moneyText(0)).toBe('0.00');
    expect(moneyText(MAX_MONEY)).toBe('20000000.00');
    expect(moneyToCedis(10_125_000)).toBe(10.125);
    expect(JSON.stringify({ fees: moneyToCedis(195_000) })).toBe('{"fees":0.195}');
  });

  it('reads back what it shows, as text and as a JSON number, for every amount (nothing lost either way)', () => {
    fc.assert(
      fc.property(money, (m) => {
        expect(moneyFromText(moneyText(m), 'x')).toBe(m);
        // The number answered in JSON is written as the exact decimal, and read back exactly.
        const json = JSON.stringify(moneyToCedis(m));
        expect(moneyFromText(json.includes('.') ? json : `${json}.00`, 'x')).toBe(m);
        expect(moneyFromCedis(JSON.parse(json), 'x')).toBe(m);
      }),
    );
  });

  it('refuses, never rounds, more decimals than allowed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9_999 }),
        fc.integer({ min: 0, max: 999_999 }),
        fc.integer({ min: 1, max: 9 }),
        (cedis, six, seventh) => {
          const text = `${cedis}.${String(six).padStart(MONEY_DECIMALS, '0')}${seventh}`;
          expect(() => moneyFromText(text, 'fees')).toThrow(/at most 6 decimals/);
          expect(() => moneyFromCedis(Number(text), 'fees')).toThrow(/at most 6 decimals/);
        },
      ),
    );
    expect(() => moneyFromCedis(0.1974375, 'fees')).toThrow(/at most 6 decimals/);
    expect(() => moneyFromCedis(10.125, 'amount', 2)).toThrow(/at most 2 decimals/);
    expect(() => moneyFromCedis(0.1 + 0.2, 'amount', 2)).toThrow(/at most 2 decimals/);
    expect(moneyFromCedis(25.5, 'amount', 2)).toBe(25_500_000);
  });

  it.each([[-1], [NaN], [Infinity], ['5'], [null], [20_000_000.01]])('refuses %p cedis', (value) => {
    expect(() => moneyFromCedis(value, 'amount')).toThrow(/amount must/);
  });

  it('reads stored text digit by digit as the careful reading does, and leaves anything else to it', () => {
    // The careful reading, written out: digits, a point and digits, no decimal past the sixth but zeros.
    const careful = (text: string): number | 'refused' => {
      const parts = /^(\d+)(?:\.(\d*))?$/.exec(text.trim());
      if (!parts) return 'refused';
      const decimals = (parts[2] ?? '').replace(/0+$/, '');
      const units = BigInt(parts[1]) * 1_000_000n + BigInt(decimals.padEnd(6, '0') || '0');
      return decimals.length > 6 || units > BigInt(MAX_MONEY) ? 'refused' : Number(units);
    };
    const read = (text: string) => {
      try {
        return moneyFromText(text, 'x');
      } catch {
        return 'refused';
      }
    };
    const character = fc.constantFrom('0', '1', '2', '5', '9', '.', ' ', 'a', '-');
    fc.assert(
      fc.property(fc.array(character, { maxLength: 14 }), (chars) => {
        const text = chars.join('');
        expect(read(text)).toBe(careful(text));
      }),
      { numRuns: 2_000 },
    );
    expect(moneyFromText('0025.500000', 'x')).toBe(25_500_000);
    expect(moneyFromText('000000025.5', 'x')).toBe(25_500_000);
    expect(moneyFromText('19999999.999999000', 'x')).toBe(MAX_MONEY - 1_000_000 + 999_999);
    expect(() => moneyFromText('1.2a', 'x')).toThrow(/x must/);
    expect(() => moneyFromText('123456789', 'x')).toThrow(/at most 20000000 cedis/);
  });

  it.each([['-1'], ['ten'], [''], ['1e3'], ['0x10'], ['20000001']])('refuses the text %p', (text) => {
    expect(() => moneyFromText(text, 'amount')).toThrow(/amount must/);
  });

  it('bounds whole millionths', () => {
    expect(assertMoney(MAX_MONEY, 'x')).toBe(MAX_MONEY);
    expect(() => assertMoney(MAX_MONEY + 1, 'x')).toThrow(/whole number/);
    expect(() => assertMoney(0.5, 'x')).toThrow(/whole number/);
    expect(() => assertMoney(-1, 'x')).toThrow(/whole number/);
  });

  it('tells whole pesewas (what a provider charges) from finer amounts', () => {
    expect(isWholePesewas(25_500_000)).toBe(true);
    expect(isWholePesewas(10_125_000)).toBe(false);
  });

  it("reads a provider's float to the millionth, and matches its amount to the half pesewa", () => {
    expect(reportedMoney(10.01 * 0.0195)).toBe(195_195);
    expect(sameReportedAmount(25.499999, 25_500_000)).toBe(true);
    expect(sameReportedAmount(10.125, 10_125_000)).toBe(true);
    expect(sameReportedAmount(10.12, 10_125_000)).toBe(false);
    expect(sameReportedAmount(25.51, 25_500_000)).toBe(false);
  });
});
