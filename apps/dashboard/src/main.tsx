import { render } from 'preact';
import { isLanguage, type Language } from '@transport/domain';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSession, type Session } from './api';
import { language, setLanguage, startingLanguage, words as w } from './i18n';
import { LanguageSwitch } from './language-switch';
import { Compliance, complianceWindow } from './screens/compliance';
import { FraudFlags, fraudFilters } from './screens/fraud-flags';
import { DriverScreen } from './screens/driver';
import { Find } from './screens/find';
import { VehicleList } from './screens/vehicles';
import { DriverList } from './screens/drivers';
import { Forgot, SetPassword, SignIn } from './screens/sign-in';
import { Queues } from './screens/queues';
import { ScanScreen } from './screens/scan';
import { Register } from './screens/register';
import { Account } from './screens/account';
import { VehicleScreen } from './screens/vehicle';
import { go } from './router';
import { SessionKeeper } from './session-keeper';
import { Loading, NotFound } from './ui';
import { loadSession, OutboxIndicator } from './offline/outbox';
import { copy } from './offline/store';
import {
  dropPendingSignOut,
  forgetOnSignOut,
  forgetSession,
  keepShell,
  rememberSession,
  sendPendingSignOut,
  sendSignOut,
  type SignedOut,
} from './offline/session';
import { currentKeys } from './certificate-check';
import { expirePack, forgetPack, refreshPack } from './offline/pack';
import { InspectByPlate, UnmatchedIndicator, UnmatchedList } from './offline/unmatched';
import {
  enforcerMayLeave,
  EnforcerNav,
  expireEnforcerPacks,
  forgetEnforcerPack,
  forgetEnforcerPacks,
  MyDay,
  RoadsideCheck,
} from './enforcement/screens';
import { EnforcementAdmin } from './screens/enforcement-admin';

/** Who decides contested notices (the duty decideNotices): the roadside office is theirs. */
const SUPERVISORS: string[] = ['admin', 'approver'];

/** The route: the part of the address after `#`, as a path and its query (the token of a password link, say). */
function currentRoute(): { path: string; query: URLSearchParams } {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  return { path, query: new URLSearchParams(query) };
}

function useRoute() {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

const OPEN_PATHS = ['/sign-in', '/forgot', '/set-password'];

/** Whether someone was signed in on this phone when the dashboard was last open (no personal data: only that). */
const SIGNED_IN = 'transport.signed-in';

/** The session kept on this phone, unless its absolute end has passed (null: none). */
async function keptSession(): Promise<Session | null> {
  const kept = await copy<Session>('session').catch(() => undefined);
  return kept && Date.parse(kept.value.endsAt) > Date.now() ? kept.value : null;
}

function App() {
  const route = useRoute();
  // Nobody was signed in on this page when it was last open: the sign-in form at once, without waiting for the phone's
  // storage (IndexedDB) or the service; a session either of them knows replaces it.
  const [session, setSession] = useState<Session | null | undefined>(() =>
    localStorage.getItem(SIGNED_IN) === null ? null : undefined,
  );
  useEffect(() => {
    if (session) localStorage.setItem(SIGNED_IN, '1');
    else if (session === null) localStorage.removeItem(SIGNED_IN);
  }, [session]);
  const [notice, setNotice] = useState<string | undefined>();
  // The language in use: a switch (or a sign-in) loads its words (i18n.ts) and this renders the page again in them.
  const [, setShown] = useState(language);
  const languageChanged = (next: Language, renewed?: Session) => {
    setShown(next);
    if (renewed) {
      setSession(renewed);
      rememberSession(renewed);
    }
  };
  /** A sign-in on this page: an answer about the session asked before it no longer counts. */
  const signedInHere = useRef(false);

  const ended = useCallback(() => {
    setSession(null);
    setNotice(w.signIn.ended);
    forgetSession();
    // The work pack never outlives the session.
    void forgetPack().catch(() => undefined);
    void forgetEnforcerPacks();
  }, []);
  useSession(session ?? undefined, ended);

  useEffect(() => {
    // A sign-out made without a signal goes first: until the service has it, nobody is signed in on this phone.
    const signedOutOffline = (result: SignedOut) => {
      setSession(null);
      setNotice(result === 'done' ? w.signIn.signedOutLater : w.signIn.signedOutHere);
    };
    const pending = sendPendingSignOut();
    if (pending) pending.then(signedOutOffline, () => setSession(null));
    else {
      // The first screen never waits on the network (on lie-fi an answer can take many seconds): the session kept on
      // this phone shows at once, or the sign-in form when none is kept; the service's answer then confirms or
      // replaces it (the cookie is http-only: only the API can tell who is signed in). Offline, the kept one stays.
      let shown: Session | null | undefined;
      let answered = false;
      keptSession().then((kept) => {
        if (answered || signedInHere.current) return;
        shown = kept;
        setSession((now) => kept ?? (now === undefined ? null : now));
      });
      loadSession().then(
        (current) => {
          answered = true;
          // Signed in while the answer was on its way: the answer (asked before) no longer says who is.
          if (signedInHere.current) return;
          // The kept session was shown, and the service says it has ended since.
          if (shown && !current) setNotice(w.signIn.ended);
          // Nobody is signed in: no work pack stays on the phone.
          if (!current) void forgetPack().catch(() => undefined);
          if (!current) void forgetEnforcerPacks();
          // The same session as the one shown: nothing to render again (a screen being worked on stays as it is).
          setSession((now) =>
            now && current && now.person._id === current.person._id && now.csrfToken === current.csrfToken
              ? now
              : current,
          );
        },
        () => {
          answered = true;
          if (!signedInHere.current) setSession((now) => now ?? null);
        },
      );
    }
    const online = () => void sendPendingSignOut()?.then((r) => r === 'done' && setNotice(w.signIn.signedOutLater));
    addEventListener('online', online);
    return () => removeEventListener('online', online);
  }, []);
  // The certificate keys reach the phone when the dashboard opens and at each sign-in (checked offline at the scan).
  useEffect(() => void currentKeys(), [session?.person._id]);
  // An inspector's work pack is fetched (or its changed pages) when the dashboard opens, at sign-in and when the
  // connection returns.
  useEffect(() => {
    if (!session) return;
    const refresh = () => void refreshPack(session).catch(() => undefined);
    refresh();
    addEventListener('online', refresh);
    return () => removeEventListener('online', refresh);
  }, [session?.person._id]);

  if (session === undefined) return <Loading />;

  if (OPEN_PATHS.includes(route.path) || !session) {
    const open = (
      <main id="main" class="narrow">
        {route.path === '/forgot' ? (
          <Forgot />
        ) : route.path === '/set-password' ? (
          <SetPassword token={route.query.get('token') ?? ''} email={route.query.get('email') ?? undefined} />
        ) : (
          <SignIn
            notice={notice}
            email={route.path === '/sign-in' ? (route.query.get('email') ?? undefined) : undefined}
            signedIn={(s) => {
              signedInHere.current = true;
              dropPendingSignOut();
              setNotice(undefined);
              setSession(s);
              rememberSession(s);
              // The language stored with the person is theirs on any phone they sign in on.
              const stored = s.person.language;
              if (isLanguage(stored) && stored !== language)
                void setLanguage(stored).then(
                  () => setShown(stored),
                  () => undefined,
                );
              if (OPEN_PATHS.includes(route.path)) go('/');
            }}
          />
        )}
      </main>
    );
    return (
      <>
        <header class="top">
          <p class="brand">{w.appName}</p>
          <LanguageSwitch changed={languageChanged} />
        </header>
        {open}
      </>
    );
  }

  const signOut = async () => {
    // An enforcer's offences and checks waiting to be sent: asked first, as for an inspector's outbox.
    if (session.person.role === 'enforcer' && !(await enforcerMayLeave(session.person._id))) return;
    if (!(await forgetOnSignOut(session))) return;
    await forgetEnforcerPack(session.person._id);
    // The phone forgets the session at once; the service is told now, or as soon as there is a signal.
    const result = await sendSignOut(session.csrfToken);
    setSession(null);
    setNotice(result === 'done' ? w.signIn.signedOut : w.signIn.signedOutHere);
    go('/sign-in');
  };

  const [, section, id, task] = route.path.split('/');
  // Each record's screen is keyed by the record: another one (Back, Forward, a pasted link) starts clean, without the
  // last one's messages or typed values.
  let screen;
  // An enforcer's dashboard is the roadside (issue 47): the check is their home, and their day.
  const enforcer = session.person.role === 'enforcer';
  const list = section === 'vehicles' && !id;
  const driverList = section === 'drivers' && !id;
  if (enforcer && (section === '' || section === 'roadside')) screen = <RoadsideCheck session={session} />;
  else if (enforcer && section === 'my-day') screen = <MyDay session={session} />;
  else if (section === 'vehicles' && id)
    screen = <VehicleScreen key={`v${id}`} id={id} session={session} task={task} />;
  else if (section === 'drivers' && id) screen = <DriverScreen key={`d${id}`} id={id} session={session} />;
  else if (section === 'vehicles') screen = <VehicleList query={route.query} />;
  else if (section === 'drivers') screen = <DriverList query={route.query} />;
  else if (section === 'find') screen = <Find initial={route.query.get('q') ?? ''} session={session} />;
  else if (section === 'inspect-plate')
    screen = (
      <InspectByPlate
        key={route.query.get('plate')}
        personId={session.person._id}
        plate={route.query.get('plate') ?? ''}
      />
    );
  else if (section === 'unmatched') screen = <UnmatchedList personId={session.person._id} />;
  else if (section === 'register') screen = <Register key={route.path} kind={id} />;
  else if (section === 'account')
    screen = (
      <Account
        session={session}
        renewed={(s) => {
          setSession(s);
          rememberSession(s);
        }}
      />
    );
  else if (section === 'scan') screen = <ScanScreen />;
  else if (section === 'fraud-flags') {
    const filters = fraudFilters(route.query);
    screen = <FraudFlags key={`f${filters.status}${filters.kind}`} {...filters} />;
  } else if (section === 'roadside-office') screen = <EnforcementAdmin />;
  else if (section === 'compliance') {
    const within = complianceWindow(route.query);
    screen = <Compliance key={`c${within}`} within={within} />;
  } else if (section === '' || section === 'queue')
    screen = <Queues queue={section === 'queue' ? id : undefined} query={route.query} session={session} />;
  else screen = <NotFound key={route.path} error={new Error(w.errors.noSuchPage)} />;

  return (
    <>
      <header class="top">
        <a
          class="skip"
          href="#main"
          onClick={(event) => {
            event.preventDefault();
            document.querySelector<HTMLElement>('main h1')?.focus();
          }}
        >
          {w.skipToContent}
        </a>
        <p class="brand">
          {w.appName}
          <span class="assembly">{session.person.assemblyName}</span>
        </p>
        <nav aria-label={w.nav.label}>
          {enforcer ? (
            <EnforcerNav session={session} section={section} />
          ) : (
            <>
              <a
                href="#/"
                aria-current={
                  !['compliance', 'register', 'account', 'scan', 'find', 'fraud-flags', 'roadside-office'].includes(
                    section,
                  ) &&
                  !list &&
                  !driverList
                    ? 'page'
                    : undefined
                }
              >
                {w.nav.queues}
              </a>
              <a href="#/find" aria-current={section === 'find' ? 'page' : undefined}>
                {w.find.nav}
              </a>
              <a href="#/vehicles" aria-current={list ? 'page' : undefined}>
                {w.find.vehicles.nav}
              </a>
              <a href="#/drivers" aria-current={driverList ? 'page' : undefined}>
                {w.lists.drivers.nav}
              </a>
              <a href="#/compliance" aria-current={section === 'compliance' ? 'page' : undefined}>
                {w.nav.compliance}
              </a>
              <a href="#/register" aria-current={section === 'register' ? 'page' : undefined}>
                {w.nav.register}
              </a>
              <a href="#/scan" aria-current={section === 'scan' ? 'page' : undefined}>
                {w.scan.nav}
              </a>
              {session.person.role === 'admin' && (
                <a href="#/fraud-flags" aria-current={section === 'fraud-flags' ? 'page' : undefined}>
                  {w.fraud.nav}
                </a>
              )}
              {SUPERVISORS.includes(session.person.role) && (
                <a href="#/roadside-office" aria-current={section === 'roadside-office' ? 'page' : undefined}>
                  {w.enforcementAdmin.nav}
                </a>
              )}
            </>
          )}
        </nav>
        <div class="who">
          <LanguageSwitch session={session} changed={languageChanged} />
          <a href="#/account" aria-current={section === 'account' ? 'page' : undefined}>
            {session.person.name} · {w.roles[session.person.role] ?? session.person.role}
          </a>
          <button type="button" class="quiet" onClick={signOut}>
            {w.nav.signOut}
          </button>
        </div>
        <OutboxIndicator session={session} />
        <UnmatchedIndicator personId={session.person._id} />
      </header>
      <main id="main">{screen}</main>
      <SessionKeeper session={session} />
    </>
  );
}

keepShell();
// A session that ended while the phone was offline (its idle or absolute end passed) takes the work pack with it,
// before anything is shown.
void expirePack().catch(() => undefined);
void expireEnforcerPacks();
// English is in this script; another language chosen on this phone (or the browser's) loads its words first, and
// English shows should they not load.
const first = startingLanguage();
void (first === 'en' ? Promise.resolve() : setLanguage(first).catch(() => undefined)).then(() =>
  render(<App />, document.getElementById('app') as HTMLElement),
);
