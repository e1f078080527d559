import 'reflect-metadata';
import type { INestApplication, LoggerService, Type } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { assertEveryRouteDeclared } from './core/auth/access-rules';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import type { AppConfig } from './config';
import { openDatabase, type Database } from './persistence/database';
import { json, text } from 'express';
import helmet from 'helmet';
import { bodyParserErrors, ProblemFilter } from './core/http/problem.filter';
import { validationPipe } from './core/http/validation';
import { OPENAPI_DESCRIPTION } from './core/http/openapi-description';

export interface RunningApp {
  app: INestApplication;
  database: Database;
  close(): Promise<void>;
}

export const DOCS_PATH = 'docs';

export async function createApp(config: AppConfig, logger?: LoggerService | false): Promise<RunningApp> {
  const database = await openDatabase(config);
  try {
    const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, database), {
      logger: logger ?? ['error', 'warn', 'log'],
      bodyParser: false,
    });
    // Security headers first, so every answer carries them (errors and the docs included). The CSP keeps /docs working
    // (Swagger UI's scripts and styles are served from here; its one inline style block needs 'unsafe-inline' styles,
    // which helmet allows by default); no upgrade-insecure-requests, which would break /docs served over plain http.
    app.use(
      helmet({
        contentSecurityPolicy: {
          directives: { 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': null },
        },
      }),
    );
    if (config.corsOrigins.length > 0) {
      app.enableCors({
        origin: [...config.corsOrigins],
        methods: ['GET', 'POST'],
        allowedHeaders: ['Authorization', 'Content-Type', 'If-Match'],
        // The paging and retry headers, readable by the browser client's scripts.
        exposedHeaders: ['Link', 'Retry-After'],
        maxAge: 600,
      });
    }
    // express's own JSON parser, with its errors answered here as problems: Nest's wrapper would turn a malformed
    // body into a generic 400 and lose what went wrong.
    // Provider callbacks are read as raw text, so a body that is not JSON can still be stored for inspection.
    app.use(`${config.paymentBasePath}/payment/callback`, text({ type: () => true, limit: '100kb' }));
    app.use(json({ limit: '100kb' }));
    app.use(bodyParserErrors);
    // Closed by default: a route that declares no access rule stops the start here, before anything is served.
    assertEveryRouteDeclared(
      [...app.get(ModulesContainer).values()].flatMap((module) =>
        [...module.controllers.values()].map((wrapper) => wrapper.metatype as Type),
      ),
    );
    app.useGlobalFilters(new ProblemFilter());
    app.useGlobalPipes(validationPipe());
    app.getHttpAdapter().getInstance().disable('x-powered-by');
    // The client address behind load balancers (TRUST_PROXY): what per-address limits count.
    app.set('trust proxy', config.trustProxy);
    const openApi = new DocumentBuilder()
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
      .build();
    SwaggerModule.setup(DOCS_PATH, app, () => SwaggerModule.createDocument(app, openApi), {
      jsonDocumentUrl: `${DOCS_PATH}/openapi.json`,
    });
    await app.init();
    return {
      app,
      database,
      async close() {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
