import { ConfigError, loadConfig } from './config';

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgresql://app@db.internal:5432/transport',
  PAYMENT_PROVIDER_URL: 'https://rmp.hubtel.com',
  PUBLIC_BASE_URL: 'https://api.transport.example.com',
};

const refusal = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected loadConfig to refuse');
};

describe('a production start', () => {
  it('starts with a real database, a real provider and an https public URL, and no demo data', () => {
    expect(loadConfig(production)).toMatchObject({ production: true, seedDemo: false });
  });

  it('refuses every setting that only makes sense on a developer machine, naming each at once', () => {
    const message = refusal({ NODE_ENV: 'production', SEED_DEMO: 'true' });
    expect(message).toMatch(/^Refusing to start with NODE_ENV=production/);
    for (const setting of [
      'DATABASE_URL is unset',
      'SEED_DEMO=true',
      'PAYMENT_PROVIDER_URL is unset',
      'PUBLIC_BASE_URL must be https',
    ])
      expect(message).toContain(setting);
  });

  it.each([
    [{ DATABASE_URL: '' }, 'DATABASE_URL'],
    [{ SEED_DEMO: 'true' }, 'SEED_DEMO'],
    [{ PAYMENT_PROVIDER_URL: '' }, 'PAYMENT_PROVIDER_URL'],
    [{ PUBLIC_BASE_URL: 'http://api.transport.example.com' }, 'PUBLIC_BASE_URL'],
  ])('refuses %j alone, naming %s', (override, setting) => {
    const message = refusal({ ...production, ...override });
    expect(message.split('\n')).toHaveLength(2);
    expect(message.split('\n')[1]).toContain(setting);
  });

  it('leaves development and test starts as they are', () => {
    expect(loadConfig({}).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).production).toBe(false);
  });
});

describe('CORS_ORIGINS', () => {
  it('lists origins exactly, and refuses anything that is not one', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    for (const bad of ['*', 'a.example.com', 'https://a.example.com/path'])
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(ConfigError);
  });
});
