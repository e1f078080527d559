import { CallbackUrlPolicy, isGlobalUnicast } from './callback-url-policy';

describe('CallbackUrlPolicy', () => {
  const strict = new CallbackUrlPolicy(
    false,
    new Set(['receiver.test', 'hooks.test:8080', '[fd00::5]:9000', '10.0.0.9:443']),
  );

  it.each([
    'https://merchant.example.com/cb',
    'https://merchant.example.com:443/cb',
    'https://8.8.8.8/hook',
    'https://[2001:4860::8888]/cb',
    'http://receiver.test/cb',
    'https://receiver.test/cb',
    'http://hooks.test:8080/cb',
    'http://[fd00::5]:9000/cb',
    'https://10.0.0.9/cb',
  ])('accepts %s', (url) => {
    expect(() => strict.check(url)).not.toThrow();
  });

  it.each([
    'ftp://merchant.example.com',
    'not a url',
    'https://user:pw@merchant.example.com',
    'http://localhost:3000',
    'http://127.0.0.1',
    'http://10.1.2.3',
    'http://172.16.0.1',
    'http://192.168.1.1',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0',
    'http://metadata.google.internal',
    'http://printer.local',
    // documentation, benchmarking, NAT64 and 6to4 ranges: not reachable hosts of a merchant
    'http://192.0.2.1/cb',
    'http://198.18.0.1/cb',
    'http://203.0.113.7/hook',
    'http://[64:ff9b::7f00:1]/cb',
    'http://[2002:7f00:1::]/cb',
    'https://[2001:db8::1]/cb',
    // plain http, or any port but https's
    'http://merchant.example.com/cb',
    'https://merchant.example.com:8443/cb',
    'https://8.8.8.8:6379/',
    // IPv4-compatible (::/96) and other embedded-IPv4 forms carrying a loopback or private address
    'https://[::7f00:1]/cb',
    'https://[::127.0.0.1]/cb',
    'https://[::a00:1]/cb',
    'https://[::]/cb',
    'https://[64:ff9b::a00:1]/cb',
    'https://[64:ff9b:1::c0a8:101]/cb',
    'https://[2002:c0a8:101::1]/cb',
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/cb',
    'https://[::ffff:0:7f00:1]/cb',
    // an allowlisted host on a port of its entry's choosing only
    'http://receiver.test:8080/cb',
    'http://receiver.test:22/cb',
    'http://hooks.test/cb',
    'http://hooks.test:8081/cb',
    'http://[fd00::5]/cb',
    'http://10.0.0.9/cb',
  ])('refuses %s outside development', (url) => {
    expect(() => strict.check(url)).toThrow(expect.objectContaining({ code: 'CALLBACK_URL_REFUSED' }));
  });

  it('lets development use local receivers, but never other schemes', () => {
    const dev = new CallbackUrlPolicy(true, new Set());
    expect(() => dev.check('http://127.0.0.1:4000/cb')).not.toThrow();
    expect(() => dev.check('file:///etc/passwd')).toThrow(expect.objectContaining({ code: 'CALLBACK_URL_REFUSED' }));
  });

  it('classifies addresses: only global unicast passes', () => {
    expect(isGlobalUnicast('8.8.8.8')).toBe(true);
    expect(isGlobalUnicast('2001:4860::8888')).toBe(true);
    expect(isGlobalUnicast('::ffff:808:808')).toBe(true);
    expect(isGlobalUnicast('100.64.0.1')).toBe(false);
    expect(isGlobalUnicast('224.0.0.1')).toBe(false);
    expect(isGlobalUnicast('example.com')).toBe(false);
    expect(isGlobalUnicast('fe80::1')).toBe(false);
    expect(isGlobalUnicast('::ffff:10.0.0.1')).toBe(false);
    expect(isGlobalUnicast('192.0.2.1')).toBe(false);
    expect(isGlobalUnicast('64:ff9b::7f00:1')).toBe(false);
    expect(isGlobalUnicast('::7f00:1')).toBe(false);
    expect(isGlobalUnicast('::808:808')).toBe(false);
    expect(isGlobalUnicast('2002:a00:1::')).toBe(false);
  });
});

// Issue 45, item 3: a local receiver refused said "must use https", when the rule that refused it is the allow-list
// (and https would not have helped): the message names that rule and the entry that allows the receiver.
describe('what a refused callBackUrl says', () => {
  const strict = new CallbackUrlPolicy(false, new Set());
  const message = (url: string) => {
    try {
      strict.check(url);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error(`${url} was accepted`);
  };

  it.each([
    ['http://127.0.0.1:4000/cb', '127.0.0.1:4000'],
    ['https://localhost/cb', 'localhost'],
    ['http://[::1]:8080/cb', '[::1]:8080'],
    ['http://10.0.0.5/cb', '10.0.0.5:80'],
  ])('refuses a local receiver %s for its address, naming the allow-list entry %s', (url, entry) => {
    const said = message(url);
    expect(said).not.toContain('must use https');
    expect(said).toContain('loopback, private');
    expect(said).toContain(`CALLBACK_URL_ALLOWLIST=${entry}`);
    expect(said).toContain('NODE_ENV=development');
    // The entry it names does allow the receiver.
    expect(() => new CallbackUrlPolicy(false, new Set([entry])).check(url)).not.toThrow();
  });

  it('refuses plain http to a public host for the lack of TLS, naming the allow-list too', () => {
    const said = message('http://merchant.example.com/cb');
    expect(said).toContain('must use https');
    expect(said).toContain('CALLBACK_URL_ALLOWLIST=merchant.example.com:80');
  });
});
