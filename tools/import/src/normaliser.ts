import {
  ASSEMBLY_ROLES,
  ASSEMBLY_TYPES,
  GENDERS,
  ID_TYPES,
  LICENSE_CLASSES,
  PAYMENT_METHODS,
  REQUEST_TYPES,
  SERVICE_TYPES,
  TRANSACTION_STATUSES,
  UNION_STATUSES,
  VEHICLE_TYPES,
} from '@transport/domain';
import cssColours from 'color-name';

/**
 * The enumerated fields of the original service, as people typed them over the years: each kind names the domain's
 * values and the spellings of them found in the original's records (docs/importing.md, "Values typed by people").
 */
export type ValueKind =
  | 'idType'
  | 'licenseClass'
  | 'gender'
  | 'assemblyType'
  | 'role'
  | 'unionStatus'
  | 'transactionStatus'
  | 'serviceType'
  | 'paymentMethod'
  | 'requestType'
  | 'vehicleType'
  | 'color';

/**
 * A value's key for comparison: case, accents, spaces and punctuation folded away (`Voter's ID`, `voter-id`,
 * `VOTER ID` -> `votersid`, `voterid`, `voterid`).
 */
export function fold(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

interface Vocabulary {
  /** The domain's values: what a field of this kind may hold here. */
  values: readonly string[];
  /** Folded spellings of the original's (abbreviations, synonyms) -> the domain's value. */
  synonyms: Readonly<Record<string, string>>;
  /** Words a person adds around the value (`Class B`, `District Assembly`), removed from the folded key. */
  noise?: RegExp;
}

/** Every spelling of one value: `of('voter_id', 'voterid', 'voterscard')`. */
const of = (value: string, ...spellings: string[]) => Object.fromEntries(spellings.map((s) => [s, value]));

export const VOCABULARIES: Readonly<Record<Exclude<ValueKind, 'color'>, Vocabulary>> = {
  idType: {
    values: ID_TYPES,
    synonyms: {
      ...of('ghana_card', 'ghanacard', 'ghcard', 'ghanaid', 'nationalid', 'nationalidcard', 'nia', 'niacard', 'gc'),
      ...of('passport', 'passportid', 'pp', 'ghanapassport'),
      ...of('voter_id', 'voterid', 'votersid', 'voteridcard', 'votersidcard', 'votercard', 'voterscard', 'vid'),
      ...of(
        'drivers_license',
        'driverslicense',
        'driverlicense',
        'driverslicence',
        'driverlicence',
        'drivinglicense',
        'drivinglicence',
        'license',
        'licence',
        'dl',
        'dvla',
      ),
      ...of('ssnit', 'ssnitcard', 'ssnitid', 'ssnitnumber', 'socialsecurity', 'socialsecuritycard'),
    },
  },
  licenseClass: {
    values: LICENSE_CLASSES,
    synonyms: {},
    noise: /^(?:(?:driving|drivers?)?licen[cs]e)?(?:class|category|cat|grade|type)?/,
  },
  gender: {
    values: GENDERS,
    synonyms: {
      ...of('male', 'm', 'man', 'boy'),
      ...of('female', 'f', 'woman', 'girl', 'fem'),
      ...of('other', 'o', 'nonbinary', 'x'),
      ...of('unspecified', 'u', 'unknown', 'na', 'none', 'notspecified', 'notstated', 'prefernottosay', 'undisclosed'),
    },
  },
  assemblyType: {
    values: ASSEMBLY_TYPES,
    synonyms: {
      ...of('metropolitan', 'metro', 'metropolis', 'metropolitanarea'),
      ...of('municipal', 'municipality', 'mun', 'munic', 'municipial'),
      ...of('district', 'dist', 'distr', 'districtcouncil'),
    },
    // `Metropolitan Assembly`, `Municipal Assembly (MA)`, `District Assembly`.
    noise: /(?:assembly|assemblies)(?:ma|mma|da|mda)?$/,
  },
  role: {
    values: ASSEMBLY_ROLES,
    synonyms: {
      ...of('inspector', 'inspection', 'inspectionofficer', 'vehicleinspector', 'insp'),
      ...of('approver', 'approval', 'approvalofficer', 'approve'),
      ...of('admin', 'administrator', 'assemblyadmin', 'superadmin', 'adm'),
    },
  },
  unionStatus: {
    values: UNION_STATUSES,
    synonyms: { ...of('active', 'act', 'enabled', 'live'), ...of('suspended', 'susp', 'suspend', 'disabled') },
  },
  transactionStatus: {
    values: TRANSACTION_STATUSES,
    synonyms: {
      ...of('success', 'paid', 'successful', 'succeeded', 'successfull', 'ok', 'completed', 'complete'),
      ...of('failed', 'failure', 'fail', 'unsuccessful', 'error'),
      ...of('pending', 'inprogress', 'processing', 'waiting'),
      ...of('requesting', 'requested', 'request'),
    },
  },
  serviceType: {
    values: SERVICE_TYPES,
    synonyms: {
      ...of('taxi', 'ondemand', 'cab', 'taxicab', 'dropin', 'drop'),
      ...of('shared', 'share', 'sharedride', 'sharedtaxi', 'pool', 'carpool', 'rideshare'),
      ...of('delivery', 'deliveries', 'courier', 'parcel', 'package', 'dispatch'),
    },
  },
  paymentMethod: {
    values: PAYMENT_METHODS,
    synonyms: {
      ...of('momo', 'mobilemoney', 'mobmoney', 'mm', 'mtnmomo', 'mtnmobilemoney', 'vodafonecash', 'airteltigomoney'),
      ...of('card', 'creditcard', 'debitcard', 'bankcard', 'visa', 'mastercard'),
      ...of('cash', 'cashpayment', 'hardcash'),
      ...of('wallet', 'ewallet', 'hyperwallet', 'hyper', 'walletbalance'),
    },
  },
  requestType: {
    values: REQUEST_TYPES,
    synonyms: {
      ...of('mobile_money', 'direct', 'directreceivemoney', 'receivemoney', 'mobilemoney', 'momo'),
      ...of('online_checkout', 'onlinecheckout', 'checkout', 'online', 'webcheckout'),
    },
  },
  vehicleType: {
    values: VEHICLE_TYPES,
    synonyms: {
      ...of('taxi', 'cab', 'car', 'saloon', 'saloncar'),
      ...of('minibus', 'trotro', 'sprinter', 'van'),
      ...of('bus', 'coach', 'largebus', 'metromass'),
      ...of('tricycle', 'pragya', 'keke', 'aboboyaa', 'tuktuk', 'motortricycle', 'threewheeler'),
      ...of('motorcycle', 'motorbike', 'motor', 'okada', 'bike', 'moto'),
      ...of('other', 'others', 'misc'),
    },
  },
};

/** Colour names people use for vehicles that CSS does not name (`ash` is Ghana's word for grey). */
const MORE_COLOURS: Readonly<Record<string, string>> = {
  ash: '#808080',
  ashgrey: '#B2BEB5',
  wine: '#722F37',
  winered: '#722F37',
  cream: '#FFFDD0',
  champagne: '#F7E7CE',
  bronze: '#CD7F32',
  burgundy: '#800020',
  metallicgrey: '#A8A9AD',
  metallicsilver: '#A8A9AD',
  skyblue: '#87CEEB',
  navyblue: '#000080',
};

/** A table's own entry only: a value typed as `constructor` must not find Object's. */
const own = (table: Readonly<Record<string, string>>, key: string) =>
  Object.hasOwn(table, key) ? table[key] : undefined;

const hex = (rgb: readonly number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`.toUpperCase();

function colour(raw: string): string | undefined {
  const trimmed = raw.trim();
  // A hex colour, with or without its `#`: #fff, FFD700.
  const digits = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(trimmed)?.[1];
  if (digits) return `#${digits.toUpperCase()}`;
  const key = fold(trimmed);
  if (Object.hasOwn(cssColours, key)) return hex(cssColours[key]);
  return own(MORE_COLOURS, key);
}

/**
 * The domain's value a person meant, or undefined when it cannot be told: case, spaces and punctuation folded, then
 * the kind's synonyms and abbreviations; colours by name (CSS's names and a few more) or hex.
 */
export function normalise(kind: ValueKind, raw: string): string | undefined {
  if (kind === 'color') return colour(raw);
  const vocabulary = VOCABULARIES[kind];
  if (vocabulary.values.includes(raw)) return raw;
  const key = fold(raw);
  const bare = vocabulary.noise ? key.replace(vocabulary.noise, '') : key;
  for (const candidate of [key, bare])
    for (const value of vocabulary.values) if (fold(value) === candidate) return value;
  return own(vocabulary.synonyms, key) ?? own(vocabulary.synonyms, bare);
}

/** Whether a value may be stored here as a field of this kind (an operator's mapping must name one). */
export function isDomainValue(kind: ValueKind, value: string): boolean {
  return kind === 'color' ? colour(value) === value : VOCABULARIES[kind].values.includes(value);
}

/** What a field of this kind may hold, for messages. */
export function allowedValues(kind: ValueKind): string {
  return kind === 'color' ? 'a hex colour such as #FFD700, or a colour name' : VOCABULARIES[kind].values.join(', ');
}
