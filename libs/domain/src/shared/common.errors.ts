import { DomainError } from './domain-error';

export const CommonErrors = {
  notFound: (what: string, id: string) => new DomainError('NOT_FOUND', `No ${what} with id ${id}`, 'not_found'),
  concurrentUpdate: (what: string, id: string) =>
    new DomainError('CONCURRENT_UPDATE', `The ${what} ${id} was changed by someone else; reload it and try again`, 'conflict'),
  duplicate: (code: string, message: string, field?: string) => new DomainError(code, message, 'conflict', field),
};
