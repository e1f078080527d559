export const SESSION_COOKIE = 'tp_session';

/**
 * The session cookie's name. A Secure cookie carries the `__Host-` prefix: browsers then accept it only from this very
 * host over https, with path / and no Domain, so a neighbouring subdomain cannot plant a session of its own (session
 * fixation) or read it. Plain http in development (COOKIE_SECURE=false) cannot have the prefix: the bare name.
 */
export const sessionCookieName = (secure: boolean): string => (secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);
