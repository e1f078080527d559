import { useState } from 'preact/hooks';
import { api, must, type Session } from '../api';
import { words as w } from '../i18n';
import { Done, ProblemMessage, Title } from '../ui';

export function SignIn(props: { notice?: string; email?: string; signedIn: (session: Session) => void }) {
  const [state, setState] = useState<{ busy?: boolean; error?: unknown }>({});
  return (
    <>
      <Title>{w.signIn.title}</Title>
      <p class="help">{w.signIn.intro}</p>
      {props.notice && <Done>{props.notice}</Done>}
      <form
        class="panel"
        onSubmit={async (event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget as HTMLFormElement);
          setState({ busy: true });
          try {
            const session = await must(
              api.POST('/auth/sign-in', {
                body: { email: String(data.get('email')), password: String(data.get('password')) },
              }),
            );
            props.signedIn(session);
          } catch (error) {
            setState({ error });
          }
        }}
      >
        <label for="email">{w.signIn.email}</label>
        <input id="email" name="email" type="email" autocomplete="username" required defaultValue={props.email ?? ''} />
        <label for="password">{w.signIn.password}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" class="primary" disabled={state.busy}>
          {w.signIn.submit}
        </button>
      </form>
      {state.error !== undefined && <ProblemMessage error={state.error} />}
      <p>
        <a href="#/forgot">{w.signIn.forgot}</a>
      </p>
    </>
  );
}

export function Forgot() {
  const [state, setState] = useState<{ busy?: boolean; error?: unknown; sent?: boolean }>({});
  return (
    <>
      <Title>{w.forgot.title}</Title>
      <p class="help">{w.forgot.intro}</p>
      <form
        class="panel"
        onSubmit={async (event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget as HTMLFormElement);
          setState({ busy: true });
          try {
            await must(api.POST('/auth/password-reset', { body: { email: String(data.get('email')) } }));
            setState({ sent: true });
          } catch (error) {
            setState({ error });
          }
        }}
      >
        <label for="email">{w.signIn.email}</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <button type="submit" class="primary" disabled={state.busy || state.sent}>
          {w.forgot.submit}
        </button>
      </form>
      {state.error !== undefined && <ProblemMessage error={state.error} />}
      {state.sent && <Done>{w.forgot.sent}</Done>}
      <p>
        <a href="#/sign-in">{w.forgot.back}</a>
      </p>
    </>
  );
}

/**
 * Choosing a password from an invitation or reset link. The link names the e-mail the person signs in with (the
 * message says it too): shown here, given to the browser's password manager as the account's name, and filled in on the
 * sign-in screen after.
 */
export function SetPassword({ token, email }: { token: string; email?: string }) {
  const [state, setState] = useState<{ busy?: boolean; error?: unknown; done?: boolean }>({});
  return (
    <>
      <Title>{w.setPassword.title}</Title>
      {email && <p class="sign-in-as">{w.roadside.signInWith(email)}</p>}
      <p class="help">{w.setPassword.intro}</p>
      {!token ? (
        <ProblemMessage error={new Error(w.setPassword.noToken)} />
      ) : (
        <form
          class="panel"
          onSubmit={async (event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget as HTMLFormElement);
            const password = String(data.get('password'));
            if (password !== String(data.get('confirm'))) {
              setState({ error: new Error(w.setPassword.mismatch) });
              return;
            }
            setState({ busy: true });
            try {
              await must(api.POST('/auth/password', { body: { token, password } }));
              setState({ done: true });
            } catch (error) {
              setState({ error });
            }
          }}
        >
          {email && <input type="hidden" name="username" autocomplete="username" value={email} />}
          <label for="password">{w.setPassword.password}</label>
          <input id="password" name="password" type="password" autocomplete="new-password" minLength={12} required />
          <label for="confirm">{w.setPassword.confirm}</label>
          <input id="confirm" name="confirm" type="password" autocomplete="new-password" minLength={12} required />
          <button type="submit" class="primary" disabled={state.busy || state.done}>
            {w.setPassword.submit}
          </button>
        </form>
      )}
      {state.error !== undefined && <ProblemMessage error={state.error} />}
      {state.done && (
        <Done>
          {w.setPassword.done} {email && w.roadside.signInWith(email)}{' '}
          <a href={email ? `#/sign-in?email=${encodeURIComponent(email)}` : '#/sign-in'}>{w.signIn.submit}</a>
        </Done>
      )}
    </>
  );
}
