/**
 * The AWS SDK costs about 33 MB of resident memory once loaded: a service on the PostgreSQL default must not load it.
 * The SDK is replaced here by a module that fails when it is loaded, so importing the adapter (as the ports module
 * does on every start) proves it loads nothing, and making an S3 store proves it loads the SDK then.
 */
describe('S3ObjectStorage loads the AWS SDK only when an S3 store is made', () => {
  const config = { bucket: 'photos', region: 'us-east-1', forcePathStyle: true, prefix: '' };

  beforeEach(() => {
    jest.resetModules();
    jest.doMock('@aws-sdk/client-s3', () => {
      throw new Error('the AWS SDK was loaded');
    });
  });
  afterEach(() => jest.dontMock('@aws-sdk/client-s3'));

  it('imports without loading the SDK', () => {
    expect(() => jest.requireActual('./s3-object-storage')).not.toThrow();
  });

  it('loads it when an S3 store is made', () => {
    const { S3ObjectStorage } = jest.requireActual('./s3-object-storage') as typeof import('./s3-object-storage');
    expect(() => new S3ObjectStorage(config)).toThrow('the AWS SDK was loaded');
  });
});
