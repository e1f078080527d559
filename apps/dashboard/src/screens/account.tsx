import { api, must, type Session } from '../api';
import { words as w } from '../i18n';
import { ActionForm, Title } from '../ui';
import { Staff } from './staff';

/**
 * The signed-in person's own account: who they are, and a new password. The API sets passwords only through a link sent
 * to the person's phone (a reset link asked for their own address), so a session left open on a shared computer cannot
 * change it without the phone. Assembly admins also manage their assembly's staff here.
 */
export function Account({ session }: { session: Session }) {
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
