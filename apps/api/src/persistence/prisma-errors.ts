import { CommonErrors, DomainError } from '@transport/domain';

interface PrismaKnownError {
  code?: string;
  meta?: {
    target?: unknown;
    modelName?: string;
    driverAdapterError?: { cause?: { constraint?: { fields?: string[]; index?: string } } };
  };
}

/** Which unique constraint a P2002 names, as the list of its fields (or the index name). */
function uniqueTarget(error: PrismaKnownError): string {
  const meta = error.meta ?? {};
  const fromTarget = Array.isArray(meta.target)
    ? meta.target.join(',')
    : typeof meta.target === 'string'
      ? meta.target
      : '';
  const constraint = meta.driverAdapterError?.cause?.constraint;
  return [fromTarget, constraint?.fields?.join(',') ?? '', constraint?.index ?? ''].join('|');
}

/**
 * Translates a unique violation into the conflict its repository contract names; any other error passes through.
 * `byField` maps a field (or index) name to the domain error for it.
 */
export function translateUniqueViolation(error: unknown, byField: Record<string, () => DomainError>): never {
  const known = error as PrismaKnownError;
  if (known?.code === 'P2002') {
    const target = uniqueTarget(known);
    for (const [field, make] of Object.entries(byField)) {
      if (target.includes(field)) throw make();
    }
    throw CommonErrors.duplicate('DUPLICATE', 'A record with the same unique value already exists');
  }
  throw error;
}
