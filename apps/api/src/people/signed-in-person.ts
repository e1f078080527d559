import { DEFAULT_LANGUAGE, type Language } from '@transport/domain';
import type { PersonRecord } from '../core/ports';

/** Who is signed in, as the dashboard shows it. */
export interface SignedInPerson {
  id: string;
  name: string;
  email: string;
  role: string;
  assemblyId: string;
  assemblyName: string;
  language: Language;
}

export interface SessionInfo {
  person: SignedInPerson;
  /** Sent back in the X-CSRF-Token header of every change made with this session. */
  csrfToken: string;
  /** The session ends at this instant without further requests, and at `endsAt` whatever happens. */
  idleExpiresAt: Date;
  endsAt: Date;
  /** How long the session lasts without a request, in seconds. */
  idleSeconds: number;
}

/** A stored person as the dashboard sees them (their language English when they never chose one). */
export const publicPerson = (p: PersonRecord): SignedInPerson => ({
  id: p.id,
  name: p.name,
  email: p.email,
  role: p.role,
  assemblyId: p.assemblyId,
  assemblyName: p.assemblyName,
  language: p.language ?? DEFAULT_LANGUAGE,
});
