import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ObjectIdGenerator } from '@transport/domain';
import { ApiKeyStore } from '../auth/api-key.store';
import type { AppConfig } from '../config';
import type { Database } from '../database/database';
import { DatabaseModule } from '../database/database.module';
import { PrismaUnitOfWork } from '../persistence/prisma-unit-of-work';
import { prismaRepositories } from '../persistence/prisma-repositories';
import { CryptoRandomSource } from '../platform/crypto-random-source';
import { ScryptSecretHasher } from '../platform/secrets';
import { SystemClock } from '../platform/system-clock';
import { SimulatedPaymentProvider } from '../payment/simulated-payment-provider';
import { HttpPaymentProvider } from '../payment/http-payment-provider';
import { JobQueue } from '../jobs/job-queue';
import { CallbackUrlPolicy } from '../payment/callback-url-policy';
import type { PaymentServices } from '../application/payment-use-cases';
import { APP_CONFIG, CLOCK, ID_GENERATOR, RANDOM_SOURCE, REPOSITORIES, SECRET_HASHER, UNIT_OF_WORK, USE_CASE_PORTS, PAYMENT_PROVIDER, JOB_QUEUE, PAYMENT_SERVICES } from './tokens';

/** The adapters behind every port, provided once for all controllers. */
@Global()
@Module({})
export class PortsModule {
  static register(config: AppConfig, database: Database): DynamicModule {
    const clock = new SystemClock();
    const random = new CryptoRandomSource();
    const ids = new ObjectIdGenerator(clock, random);
    const hasher = new ScryptSecretHasher();
    const uow = new PrismaUnitOfWork(database.prisma);
    const provider = config.provider.url ? new HttpPaymentProvider({ ...config.provider, url: config.provider.url }) : new SimulatedPaymentProvider();
    const jobs = new JobQueue(database.pool, { pollSeconds: config.jobs.pollSeconds, workers: config.jobs.workers });
    const callbackUrls = new CallbackUrlPolicy(config.development, config.callbackUrlAllowlist);
    const paymentServices: PaymentServices = {
      prisma: database.prisma,
      provider,
      jobs,
      clock,
      ids,
      callbackBase: `${config.publicBaseUrl}${config.paymentBasePath}`,
      checkCallbackUrl: (url) => callbackUrls.check(url),
      reconcileAfterSeconds: config.jobs.reconcileAfterSeconds,
      callbackSecret: config.provider.callbackSecret,
    };
    const providers = [
      { provide: APP_CONFIG, useValue: config },
      { provide: USE_CASE_PORTS, useValue: { uow, clock, ids, random, hasher } },
      { provide: CLOCK, useValue: clock },
      { provide: RANDOM_SOURCE, useValue: random },
      { provide: ID_GENERATOR, useValue: ids },
      { provide: SECRET_HASHER, useValue: hasher },
      { provide: REPOSITORIES, useValue: prismaRepositories(database.prisma) },
      { provide: UNIT_OF_WORK, useValue: uow },
      { provide: ApiKeyStore, useValue: new ApiKeyStore(database.prisma) },
      { provide: PAYMENT_PROVIDER, useValue: provider },
      { provide: JOB_QUEUE, useValue: jobs },
      { provide: PAYMENT_SERVICES, useValue: paymentServices },
    ];
    return {
      module: PortsModule,
      imports: [DatabaseModule.forDatabase(database)],
      providers,
      exports: [...providers.map((p) => p.provide), DatabaseModule],
    };
  }
}
