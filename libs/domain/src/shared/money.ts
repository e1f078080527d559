import { DomainError } from './domain-error';

/**
 * Pesewas (minor units of the Ghana cedi), integers: what offence fines are held in. The ceiling (20 million cedis, far
 * above any mobile-money limit) keeps every amount inside a PostgreSQL integer column and every sum exact. Payments'
 * and trips' money is exact to six decimals: below.
 */
export const MAX_PESEWAS = 2_000_000_000; // twenty million cedis: fits a PostgreSQL integer column

export function assertPesewas(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_PESEWAS) {
    throw new DomainError(
      'INVALID_AMOUNT',
      `${field} must be a whole number of pesewas from 0 to ${MAX_PESEWAS}`,
      field,
    );
  }
  return value;
}

/** Cedis as sent by a client (25.5) to pesewas (2550); more than two decimals is refused rather than rounded. */
export function cedisToPesewas(cedis: number, field: string): number {
  if (typeof cedis !== 'number' || !Number.isFinite(cedis) || cedis < 0) {
    throw new DomainError('INVALID_AMOUNT', `${field} must be a non-negative amount in cedis`, field);
  }
  const pesewas = Math.round(cedis * 100);
  if (Math.abs(pesewas - cedis * 100) > 1e-6) {
    throw new DomainError('INVALID_AMOUNT', `${field} must have at most two decimals`, field);
  }
  return assertPesewas(pesewas, field);
}

export function pesewasToCedis(pesewas: number): number {
  return pesewas / 100;
}

/**
 * Exact money: a whole number of millionths of a cedi. Six decimals keep any fee of a percentage with two decimals
 * (1.95%) of an amount with two decimals (10.01 x 1.95% = 0.195195) exactly; the original service stored such fees
 * (and amounts such as 10.125) as they came. A safe integer counts them exactly in a plain `number` (no float
 * arithmetic, no decimal library in the domain), and the ceiling keeps every amount at 14 significant digits or
 * fewer: a double holds 15 exactly, so the number answered in JSON (`moneyToCedis`) prints as the exact decimal.
 * Nothing is ever rounded: a value with more decimals is refused, never made to fit.
 */
export const MONEY_DECIMALS = 6;
const UNITS_PER_CEDI = 1_000_000;
/** Millionths of a cedi in a pesewa: the smallest amount a new price or a provider's charge is made of. */
export const MONEY_UNITS_PER_PESEWA = UNITS_PER_CEDI / 100;
/** Twenty million cedis, in millionths (2e13: a safe integer, 14 digits). */
export const MAX_MONEY = 20_000_000 * UNITS_PER_CEDI;

const invalidAmount = (field: string, message: string) => new DomainError('INVALID_AMOUNT', message, field);

export function assertMoney(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_MONEY) {
    throw invalidAmount(field, `${field} must be a whole number of millionths of a cedi from 0 to ${MAX_MONEY}`);
  }
  return value;
}

/**
 * Cedis as a JSON number (10.125) to millionths (10125000), exactly: the number must be the one a decimal of at most
 * `decimals` decimals reads as (`scaled / scale === cedis` holds for exactly those), else it is refused, not rounded.
 */
export function moneyFromCedis(cedis: unknown, field: string, decimals = MONEY_DECIMALS): number {
  if (typeof cedis !== 'number' || !Number.isFinite(cedis) || cedis < 0) {
    throw invalidAmount(field, `${field} must be a non-negative amount in cedis`);
  }
  if (cedis > MAX_MONEY / UNITS_PER_CEDI) {
    throw invalidAmount(field, `${field} must be at most ${MAX_MONEY / UNITS_PER_CEDI} cedis`);
  }
  const scale = 10 ** decimals;
  const scaled = Math.round(cedis * scale);
  if (scaled / scale !== cedis) throw invalidAmount(field, `${field} must have at most ${decimals} decimals`);
  return scaled * (UNITS_PER_CEDI / scale);
}

const DECIMAL_TEXT = /^(\d+)(?:\.(\d*))?$/;

/** Cedis as decimal text ("10.125", "0.195000", a database's numeric) to millionths, exactly, or refused. */
export function moneyFromText(text: string, field: string): number {
  const plain = plainMillionths(text);
  if (plain !== undefined) return plain;
  const parts = DECIMAL_TEXT.exec(text.trim());
  if (!parts) throw invalidAmount(field, `${field} must be a non-negative amount in cedis`);
  const [, whole, fraction = ''] = parts;
  const decimals = fraction.replace(/0+$/, '');
  if (decimals.length > MONEY_DECIMALS) {
    throw invalidAmount(field, `${field} must have at most ${MONEY_DECIMALS} decimals`);
  }
  const cedis = Number(whole);
  if (cedis > MAX_MONEY / UNITS_PER_CEDI) {
    throw invalidAmount(field, `${field} must be at most ${MAX_MONEY / UNITS_PER_CEDI} cedis`);
  }
  return cedis * UNITS_PER_CEDI + Number(decimals.padEnd(MONEY_DECIMALS, '0'));
}

/** The most digits of whole cedis `plainMillionths` reads itself: the ceiling's (20,000,000 cedis). */
const PLAIN_WHOLE_DIGITS = 8;

/**
 * The text every stored amount has ("25.500000": digits, a point, digits), read digit by digit without a regular
 * expression or the strings `moneyFromText`'s careful path makes: lists read seven amounts a trip. Undefined for any
 * other text (spaces, a ninth digit of cedis, a seventh decimal that is not 0, anything not a digit), which the careful
 * path reads or refuses with its reason.
 */
function plainMillionths(text: string): number | undefined {
  const length = text.length;
  let i = 0;
  let whole = 0;
  for (; i < length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) break;
    whole = whole * 10 + digit;
  }
  if (i === 0 || i > PLAIN_WHOLE_DIGITS || whole > MAX_MONEY / UNITS_PER_CEDI) return undefined;
  let fraction = 0;
  if (i < length) {
    if (text.charCodeAt(i) !== 46) return undefined;
    let place = UNITS_PER_CEDI / 10;
    for (i++; i < length; i++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9 || (place === 0 && digit !== 0)) return undefined;
      fraction += digit * place;
      place = Math.floor(place / 10);
    }
  }
  return whole * UNITS_PER_CEDI + fraction;
}

/**
 * Millionths to cedis as a JSON number: the double nearest the decimal, which JSON writes as that decimal (every
 * amount has at most 14 significant digits). Shown with every decimal it carries (10.125, 0.195, 25.5), no rounding.
 */
export function moneyToCedis(money: number): number {
  return money / UNITS_PER_CEDI;
}

/** Millionths as decimal text with at least two decimals and every further one it carries: "25.50", "0.195". */
export function moneyText(money: number): string {
  const whole = Math.floor(money / UNITS_PER_CEDI);
  const fraction = String(money - whole * UNITS_PER_CEDI)
    .padStart(MONEY_DECIMALS, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${whole}.${fraction}`;
}

/** Whether the money is a whole number of pesewas (what a provider can charge: two decimals). */
export function isWholePesewas(money: number): boolean {
  return money % MONEY_UNITS_PER_PESEWA === 0;
}

/**
 * An amount a payment provider reports (a float, such as 25.499999 or 0.19519499999999998), to the millionth: the
 * provider's float noise is not money. Its message is kept as received beside it (requestInfo, callBackInfo).
 */
export function reportedMoney(cedis: number): number {
  return Math.round(cedis * UNITS_PER_CEDI);
}

/** Whether a provider's reported amount is the stored one: they differ by less than half a pesewa. */
export function sameReportedAmount(reportedCedis: number, money: number): boolean {
  return Math.abs(reportedMoney(reportedCedis) - money) < UNITS_PER_CEDI / 200;
}
