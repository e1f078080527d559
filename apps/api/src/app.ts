import 'reflect-metadata';
import { Logger, type INestApplication, type Type } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import type { Logger as PinoRoot } from 'pino';
import { Metrics } from './core/observability/metrics';
import {
  createRootLogger,
  flushLogs,
  loggerParams,
  nestLogger,
  serviceLogDestination,
} from './core/observability/logging';
import { assertEveryRouteDeclared } from './core/auth/access-rules';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { declareHeaders, operationId } from './core/http/openapi-contract';
import { declareViews } from './core/http/openapi-views';
import { declareSchemaKeywords } from './core/http/openapi';
import { AppModule } from './app.module';
import type { PortOverrides } from './ports.module';
import type { AppConfig } from './config';
import { openDatabase, type Database } from './persistence/database';
import { CALLBACK_BODY_LIMIT_BYTES } from './payments/payment-callbacks.service';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProblemFilter } from './core/http/problem.filter';
import { serveDashboard } from './core/http/dashboard-files';
import { httpAdapter, installPipeline } from './core/http/http-pipeline';
import { validationPipe } from './core/http/validation';
import { OPENAPI_DESCRIPTION } from './core/http/openapi-description';
import { withActivationSecrets, withCertificateKeys } from './core/platform/server-secrets';
import type { Bulkhead } from './core/platform/bulkhead';
import { REGISTRATION_BULKHEAD } from './drivers/drivers.controller';
import { shedSaturatedRegistrations } from './drivers/registration-shedding';
import { sessionCookieName } from './core/auth/session-cookie';

export interface RunningApp {
  app: INestApplication;
  database: Database;
  /** The process's pino logger (JSON lines on stdout unless another destination was given). */
  logger: PinoRoot;
  /** The Prometheus scrape endpoint (METRICS_PORT), when on. */
  metricsServer?: Server;
  close(): Promise<void>;
}

export interface AppOptions {
  /**
   * The pino logger to write to (default: one at LOG_LEVEL on stdout, buffered: serviceLogDestination); tests pass one
   * over a captured stream.
   */
  logger?: PinoRoot;
  /** Adapters in place of the real ones (tests: a clock they move). */
  ports?: PortOverrides;
}

export const DOCS_PATH = 'docs';
export const DASHBOARD_PATH = 'dashboard';

/** Where the built dashboard is: the repository's build output, or the runtime bundle's `dashboard` folder. */
export function dashboardDir(appRoot: string): string | undefined {
  return [join(appRoot, 'dist', 'apps', 'dashboard'), join(appRoot, 'dashboard')].find((dir) =>
    existsSync(join(dir, 'index.html')),
  );
}

/** The OpenAPI document of an app (running, or a preview with no database: see describeApi). */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const info = new DocumentBuilder()
    .setTitle('Transport platform API')
    .setDescription(OPENAPI_DESCRIPTION)
    .setVersion('0.1.0')
    .addServer('/', 'API base URL ({base_url}); payment routes under PAYMENT_BASE_PATH ({pay_url})')
    .addSecurity('apiKey', {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'The bare API key, or `Bearer <key>`.',
    })
    .addSecurity('session', {
      type: 'apiKey',
      in: 'cookie',
      name: '__Host-tp_session',
      description:
        "`tp_session` without the prefix when COOKIE_SECURE=false (plain http in development). A person's dashboard session (POST /auth/sign-in); acts as the user's assembly key would. Every change made with it carries the session's `X-CSRF-Token` header (403 `CSRF_REJECTED` without).",
    })
    .addSecurity('hubtelBasic', {
      type: 'http',
      scheme: 'basic',
      description:
        "Hubtel's requests to the USSD and inbound SMS routes: HUBTEL_INBOUND_USERNAME and HUBTEL_INBOUND_PASSWORD (docs/ussd-sms.md).",
    })
    .build();
  return declareViews(
    declareSchemaKeywords(declareHeaders(SwaggerModule.createDocument(app, info, { operationIdFactory: operationId }))),
  );
}

/**
 * The OpenAPI document without a database or a server: the app's modules in Nest's preview mode (nothing is
 * instantiated, nothing connects). `npm run openapi` writes it to apps/api/openapi.json; the tests check that the
 * committed file is exactly this.
 */
export async function describeApi(config: AppConfig): Promise<OpenAPIObject> {
  const offline = { kind: 'postgresql', url: '', prisma: {}, pool: { on: () => undefined }, reads: {}, lists: {} };
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config, offline as unknown as Database),
    httpAdapter(config),
    { preview: true, logger: false, abortOnError: false },
  );
  try {
    return openApiDocument(app);
  } finally {
    await app.close();
  }
}

export async function createApp(given: AppConfig, options: AppOptions = {}): Promise<RunningApp> {
  // Stdout through a buffer, unless the caller gave a logger; written out and its timer stopped when the app closes.
  const destination = options.logger ? undefined : serviceLogDestination();
  const logger = options.logger ?? createRootLogger(given.logLevel, destination);
  const params = loggerParams(logger);
  // Every Nest message (the database's, the router's, the job workers') goes out as pino JSON from here on.
  Logger.overrideLogger(nestLogger(params));
  const { config: withSecrets, madeSecret } = await withActivationSecrets(given);
  const { config, madeSecret: madeKey } = await withCertificateKeys(withSecrets);
  if (madeSecret === 'kept in DATA_DIR')
    logger.warn(
      `ACTIVATION_KEY_SECRETS is unset: drivers' activation keys are hashed with a secret made for this machine and kept in ${config.dataDir}`,
    );
  if (madeSecret === 'this process only')
    logger.warn(
      "ACTIVATION_KEY_SECRETS is unset: drivers' activation keys are hashed with a secret of this process only; keys it sends stop working when it restarts, and other instances cannot verify them",
    );
  if (madeKey === 'kept in DATA_DIR')
    logger.warn(
      `CERTIFICATE_SIGNING_KEYS is unset: vehicle certificates are signed with a key made for this machine and kept in ${config.dataDir}`,
    );
  if (madeKey === 'this process only')
    logger.warn(
      'CERTIFICATE_SIGNING_KEYS is unset: vehicle certificates are signed with a key of this process only; their QR codes stop checking as genuine when it restarts, and other instances find them not genuine',
    );
  const database = await openDatabase(config);
  try {
    const app = await NestFactory.create<NestFastifyApplication>(
      AppModule.register(config, database, options.ports),
      httpAdapter(config),
      { logger: nestLogger(params), bodyParser: false },
    );
    // The request's id and the security headers before anything else can answer (a malformed body, a 413, a refused
    // registration name their request too), the body parser, the input-shape check, the access log and the metrics:
    // core/http/http-pipeline.ts.
    installPipeline(app, {
      logger,
      metrics: app.get(Metrics),
      callbackBodyBytes: CALLBACK_BODY_LIMIT_BYTES,
      accessLog: config.accessLog,
    });
    if (config.corsOrigins.length > 0) {
      app.enableCors({
        origin: [...config.corsOrigins],
        methods: 'GET,POST',
        allowedHeaders: 'Authorization,Content-Type,If-Match,Idempotency-Key',
        // The paging and retry headers, readable by the browser client's scripts.
        exposedHeaders: 'Link,Retry-After,X-Total-Count,X-Request-Id,Idempotent-Replayed',
        maxAge: 600,
      });
    }
    const instance = app.getHttpAdapter().getInstance();
    // A flood of registrations without a key, refused from its headers alone (before its body is read) while the
    // bulkhead is full.
    instance.addHook(
      'onRequest',
      shedSaturatedRegistrations(
        app.get<Bulkhead>(REGISTRATION_BULKHEAD),
        sessionCookieName(config.people.cookieSecure),
        logger,
      ),
    );
    // The assembly dashboard, same origin as the API (its session cookie is SameSite=Strict): core/http/dashboard-files.ts.
    await serveDashboard(instance, `/${DASHBOARD_PATH}`, dashboardDir(config.appRoot));
    // Closed by default: a route that declares no access rule stops the start here, before anything is served.
    assertEveryRouteDeclared(
      [...app.get(ModulesContainer).values()].flatMap((module) =>
        [...module.controllers.values()].map((wrapper) => wrapper.metatype as Type),
      ),
    );
    app.useGlobalFilters(new ProblemFilter());
    app.useGlobalPipes(validationPipe());
    SwaggerModule.setup(DOCS_PATH, app, () => openApiDocument(app), {
      jsonDocumentUrl: `${DOCS_PATH}/openapi.json`,
    });
    await app.init();
    await instance.ready();
    // Node's own limits on slow or stuck clients (slowloris): a whole request, its headers, an idle keep-alive.
    const server = app.getHttpServer() as Server;
    server.requestTimeout = config.http.requestTimeoutMs;
    server.headersTimeout = config.http.headersTimeoutMs;
    server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
    let metricsServer: Server | undefined;
    try {
      if (config.metrics.port !== undefined)
        metricsServer = await app.get(Metrics).listen(config.metrics.port, config.metrics.host);
    } catch (error) {
      await app.close();
      throw new Error(`METRICS_PORT ${config.metrics.port}: ${(error as Error).message}`, { cause: error });
    }
    return {
      app,
      database,
      logger,
      metricsServer,
      async close() {
        if (metricsServer) await new Promise((resolve) => metricsServer.close(resolve));
        await app.close();
        await database.close();
        if (destination) {
          await flushLogs(logger);
          destination.end();
        }
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
