import { api, must, type Session } from '../api';
import { words as w } from '../i18n';
import { ActionForm, Title } from '../ui';
import { Staff } from './staff';

/**
 * The signed-in person's own account: who they are, and their password. They change it with the password they use now
 * (so a session left open on a shared computer cannot change it without that password); the API then ends every other
 * session of theirs and renews this one, whose new CSRF token the page takes up (`renewed`). A forgotten password is
 * set again through the link sent to their phone. Assembly admins also manage their assembly's staff here.
 */
export function Account({ session, renewed }: { session: Session; renewed: (session: Session) => void }) {
  const me = session.person;
  return (
    <>
      <Title>{w.account.title}</Title>
      <section class="panel" aria-labelledby="me">
        <h2 id="me">{me.name}</h2>
        <dl class="facts">
          <dt>{w.account.email}</dt>
          <dd>{me.email}</dd>
          <dt>{w.account.role}</dt>
          <dd>{w.roles[me.role] ?? me.role}</dd>
          <dt>{w.account.assembly}</dt>
          <dd>{me.assemblyName}</dd>
        </dl>
      </section>
      <ActionForm
        label={w.account.password}
        help={w.account.passwordHelp}
        submit={w.account.change}
        done={w.account.changed}
        action={async (data) => {
          const newPassword = String(data.get('newPassword'));
          if (newPassword !== String(data.get('confirm'))) throw new Error(w.account.mismatch);
          renewed(
            await must(
              api.POST('/auth/password/change', {
                body: { currentPassword: String(data.get('currentPassword')), newPassword },
              }),
            ),
          );
        }}
      >
        {/* For password managers: whose password this is (hidden, so nobody has to read it again). */}
        <input type="email" name="username" autocomplete="username" value={me.email} readOnly hidden />
        <label for="current-password">{w.account.current}</label>
        <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required />
        <label for="new-password">{w.account.newPassword}</label>
        <p class="help" id="new-password-help">
          {w.setPassword.intro}
        </p>
        <input
          id="new-password"
          name="newPassword"
          type="password"
          autocomplete="new-password"
          minLength={12}
          maxLength={200}
          aria-describedby="new-password-help"
          required
        />
        <label for="confirm-password">{w.account.confirm}</label>
        <input
          id="confirm-password"
          name="confirm"
          type="password"
          autocomplete="new-password"
          minLength={12}
          maxLength={200}
          required
        />
      </ActionForm>
      <ActionForm
        label={w.account.forgot}
        help={w.account.forgotHelp}
        submit={w.account.send}
        done={w.account.sent}
        action={async () => {
          await must(api.POST('/auth/password-reset', { body: { email: me.email } }));
        }}
      />
      {me.role === 'admin' && <Staff me={me._id} assembly={me.assembly} />}
    </>
  );
}
