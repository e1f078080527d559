import { requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import { assertObjectId } from '../shared/id-generator';
import { assertPesewas } from '../shared/money';
import { boundedNumber } from '../shared/values';
import { NoticeErrors } from './notice.errors';

/** The terms of one offence, as an assembly's catalogue sets them and as a notice keeps them. Money in pesewas. */
export interface OffenceTerms {
  /** Short, upper case: letters, digits and hyphens (`TF-01`). */
  readonly code: string;
  readonly description: string;
  /** The bye-law (or act) and its section, as the assembly cites it. */
  readonly bylaw: string;
  readonly fine: number;
  /** Days from the offence to pay the fine before the surcharge applies. */
  readonly daysToPay: number;
  /** Added once the notice is overdue. */
  readonly surcharge: number;
  /** Days from the offence to contest it; absent when the offence cannot be contested. */
  readonly daysToContest?: number;
}

export interface OffenceCatalogueState {
  readonly assemblyId: string;
  /** 1 for the assembly's first catalogue, one more for each published after it. */
  readonly version: number;
  readonly offences: readonly OffenceTerms[];
  readonly publishedBy: string;
  readonly publishedAt: Date;
}

export const MAX_OFFENCES = 200;
const CODE = /^[A-Z0-9][A-Z0-9-]{0,11}$/;

function offenceTerms(raw: OffenceTerms, field: string): OffenceTerms {
  const code = typeof raw.code === 'string' ? raw.code.trim().toUpperCase() : '';
  if (!CODE.test(code))
    throw new DomainError(
      'INVALID_VALUE',
      `${field}.code must be 1 to 12 letters, digits or hyphens, starting with a letter or digit`,
      `${field}.code`,
    );
  const terms: OffenceTerms = {
    code,
    description: requireText(raw.description, `${field}.description`, 200),
    bylaw: requireText(raw.bylaw, `${field}.bylaw`, 120),
    fine: assertPesewas(raw.fine, `${field}.fine`),
    daysToPay: boundedNumber(raw.daysToPay, `${field}.daysToPay`, 1, 365, true),
    surcharge: assertPesewas(raw.surcharge, `${field}.surcharge`),
  };
  if (terms.fine === 0)
    throw new DomainError('INVALID_AMOUNT', `${field}.fine must be more than zero`, `${field}.fine`);
  return raw.daysToContest === undefined
    ? terms
    : { ...terms, daysToContest: boundedNumber(raw.daysToContest, `${field}.daysToContest`, 1, 365, true) };
}

/**
 * An assembly's catalogue of offences, versioned: a new list is published as the next version and never changes the
 * terms a notice was issued under (each notice keeps a copy of its offences' terms and the version).
 */
export const OffenceCatalogue = {
  publish(
    assemblyId: string,
    offences: readonly OffenceTerms[],
    previous: OffenceCatalogueState | undefined,
    publishedBy: string,
    at: Date,
  ): OffenceCatalogueState {
    if (!Array.isArray(offences) || offences.length === 0 || offences.length > MAX_OFFENCES)
      throw new DomainError('INVALID_VALUE', `offences must list 1 to ${MAX_OFFENCES} offences`, 'offences');
    const checked = offences.map((o, i) => offenceTerms(o, `offences[${i}]`));
    const seen = new Set<string>();
    for (const { code } of checked) {
      if (seen.has(code)) throw NoticeErrors.duplicateOffence(code);
      seen.add(code);
    }
    return {
      assemblyId: assertObjectId(assemblyId, 'assembly'),
      version: (previous?.version ?? 0) + 1,
      offences: checked,
      publishedBy,
      publishedAt: at,
    };
  },

  /** The terms of the offences named, in the order named; a code the catalogue lacks is refused. */
  termsOf(catalogue: OffenceCatalogueState, codes: readonly string[]): OffenceTerms[] {
    return codes.map((raw) => {
      const code = String(raw).trim().toUpperCase();
      const terms = catalogue.offences.find((o) => o.code === code);
      if (!terms) throw NoticeErrors.offenceNotFound(code, catalogue.version);
      return terms;
    });
  },
};
