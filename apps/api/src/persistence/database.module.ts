import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { Database } from './database';

export const DATABASE = Symbol('DATABASE');

/** Makes the already-open database injectable; opening it (and migrating) happens before Nest starts. */
@Global()
@Module({})
export class DatabaseModule {
  static forDatabase(database: Database): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DATABASE, useValue: database }],
      exports: [DATABASE],
    };
  }
}
