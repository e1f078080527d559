import { CallbackUrlPolicy, isPrivateAddress } from './callback-url-policy';

describe('CallbackUrlPolicy', () => {
  const strict = new CallbackUrlPolicy(false, new Set(['receiver.test']));

  it.each([
    'https://merchant.example.com/cb',
    'http://203.0.113.7:8080/hook',
    'https://[2001:db8::1]/cb',
    'http://receiver.test/cb',
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
  ])('refuses %s outside development', (url) => {
    expect(() => strict.check(url)).toThrow(expect.objectContaining({ code: 'CALLBACK_URL_REFUSED' }));
  });

  it('lets development use local receivers, but never other schemes', () => {
    const dev = new CallbackUrlPolicy(true, new Set());
    expect(() => dev.check('http://127.0.0.1:4000/cb')).not.toThrow();
    expect(() => dev.check('file:///etc/passwd')).toThrow(expect.objectContaining({ code: 'CALLBACK_URL_REFUSED' }));
  });

  it('classifies addresses', () => {
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('100.64.0.1')).toBe(true);
    expect(isPrivateAddress('224.0.0.1')).toBe(true);
    expect(isPrivateAddress('example.com')).toBe(false);
    expect(isPrivateAddress('2001:4860::8888')).toBe(false);
    expect(isPrivateAddress('fe80::1')).toBe(true);
    expect(isPrivateAddress('::ffff:10.0.0.1')).toBe(true);
    expect(isPrivateAddress('::ffff:808:808')).toBe(false);
  });
});
