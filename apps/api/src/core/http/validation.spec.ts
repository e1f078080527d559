import 'reflect-metadata';
import { IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { SearchQuery } from '../../search/search.dto';
import { AppError } from '../errors';
import { validationPipe } from './validation';

class Address {
  @IsString()
  @MaxLength(40)
  street!: string;
}

class Registration {
  @IsString()
  @MaxLength(100)
  name!: string;

  @IsInt()
  @Min(1)
  seats!: number;

  @IsOptional()
  @IsString()
  note?: string;

  @ValidateNested()
  @Type(() => Address)
  address!: Address;
}

async function refusal(metatype: new () => object, value: unknown): Promise<AppError> {
  try {
    await validationPipe().transform(value, { type: 'body', metatype });
  } catch (error) {
    return error as AppError;
  }
  throw new Error('accepted');
}

// Issue 45, item 3: a missing field answered every constraint of the field ("must be at most 100 characters", "must be
// a string"), sending a newcomer to fix the wrong thing.
describe('the validation pipe', () => {
  it('reports a missing field once, as required, instead of every constraint it would have broken', async () => {
    const error = await refusal(Registration, { address: {} });
    expect(error.extra.errors).toEqual([
      { field: 'name', message: 'name is required' },
      { field: 'seats', message: 'seats is required' },
      { field: 'address.street', message: 'address.street is required' },
    ]);
  });

  it('says "query is required" for a search without one, with the rule it must follow', async () => {
    const error = await refusal(SearchQuery, {});
    expect(error.detail).toBe(`query: ${error.extra.errors![0].message}`);
    expect(error.extra.errors).toEqual([{ field: 'query', message: expect.stringMatching(/^query is required/) }]);
  });

  it('still lists every broken constraint of a value that is present', async () => {
    const error = await refusal(Registration, { name: 7, seats: 0, address: { street: 'x'.repeat(41) } });
    expect(error.extra.errors).toEqual([
      { field: 'name', message: 'name must be shorter than or equal to 100 characters' },
      { field: 'name', message: 'name must be a string' },
      { field: 'seats', message: 'seats must not be less than 1' },
      { field: 'address.street', message: 'street must be shorter than or equal to 40 characters' },
    ]);
  });
});
