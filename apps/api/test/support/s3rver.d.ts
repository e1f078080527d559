// s3rver 3.7 ships no types: the part of its API the tests use (its README, lib/s3rver.js).
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: Array<{ name: string; configs?: Array<string | Buffer> }>;
  }
  class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number; family: string }>;
    close(): Promise<void>;
  }
  export = S3rver;
}
