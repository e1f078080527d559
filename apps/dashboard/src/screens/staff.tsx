import { useState } from 'preact/hooks';
import type { Language } from '@transport/domain';
import { api, must, type AssemblyUser } from '../api';
import { DASHBOARD_LANGUAGES, language, words as w } from '../i18n';
import { ActionForm, Done, Loading, ProblemMessage, useLoad } from '../ui';

const ROLES = ['inspector', 'approver', 'admin', 'enforcer'] as const;

/**
 * An assembly admin's staff list (their own assembly, as the API scopes it): add a person, send them the link to set
 * their password, disable one who left and enable them again, and confirm an approver or admin another admin added
 * (a second person: the API refuses the admin who added them). The admin cannot disable themselves.
 */
export function Staff({ me, assembly }: { me: string; assembly: string }) {
  const users = useLoad(() => must(api.GET('/assembly/users', { params: { query: { limit: 100 } } })), []);
  const [said, setSaid] = useState<{ words?: string; error?: unknown }>({});
  const act = (words: string, call: () => Promise<unknown>) => async () => {
    setSaid({});
    try {
      await call();
      setSaid({ words });
      users.reload();
    } catch (error) {
      setSaid({ error });
    }
  };
  return (
    <>
      <section class="panel" aria-labelledby="staff">
        <h2 id="staff">{w.staff.title}</h2>
        <div aria-live="polite">{said.words && <Done>{said.words}</Done>}</div>
        {said.error !== undefined && <ProblemMessage error={said.error} />}
        {users.error !== undefined && <ProblemMessage error={users.error} retry={users.reload} />}
        {!users.value && users.error === undefined && <Loading />}
        {users.value && (
          <ul class="cards">
            {users.value.map((u: AssemblyUser) => (
              <li key={u._id}>
                <span class="card-title">{u.name}</span>
                <span>
                  {w.roles[u.role] ?? u.role} · {u.email} · {u.phone}
                </span>
                <span class={u.disabledAt || u.awaitingConfirmation ? 'failed' : 'muted'}>
                  {u.disabledAt ? w.staff.disabled : u.awaitingConfirmation ? w.staff.awaiting : w.staff.active}
                </span>
                {u._id !== me && (
                  <span class="row">
                    {u.awaitingConfirmation && (
                      <button
                        type="button"
                        aria-label={w.staff.confirmWho(u.name)}
                        onClick={act(w.staff.confirmed(u.name), () =>
                          must(api.POST('/assembly/users/{id}/confirm', { params: { path: { id: u._id } } })),
                        )}
                      >
                        {w.staff.confirm}
                      </button>
                    )}
                    {!u.disabledAt && (
                      <button
                        type="button"
                        aria-label={w.staff.inviteWho(u.name)}
                        onClick={act(w.staff.invited(u.name), () =>
                          must(api.POST('/auth/invitations', { body: { user: u._id } })),
                        )}
                      >
                        {w.staff.invite}
                      </button>
                    )}
                    {u.disabledAt ? (
                      <button
                        type="button"
                        aria-label={w.staff.enableWho(u.name)}
                        onClick={act(w.staff.enabled(u.name), () =>
                          must(api.POST('/assembly/users/{id}/enable', { params: { path: { id: u._id } } })),
                        )}
                      >
                        {w.staff.enable}
                      </button>
                    ) : (
                      <button
                        type="button"
                        class="danger"
                        aria-label={w.staff.disableWho(u.name)}
                        onClick={act(w.staff.disabledNow(u.name), () =>
                          must(api.POST('/assembly/users/{id}/disable', { params: { path: { id: u._id } } })),
                        )}
                      >
                        {w.staff.disable}
                      </button>
                    )}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <ActionForm
        label={w.staff.add}
        help={w.staff.addHelp}
        submit={w.staff.addSubmit}
        done={w.staff.added}
        action={async (data) => {
          await must(
            api.POST('/assembly/users/add', {
              body: {
                assembly,
                name: String(data.get('name') ?? '').trim(),
                email: String(data.get('email') ?? '').trim(),
                phone: String(data.get('phone') ?? '').trim(),
                role: String(data.get('role')) as (typeof ROLES)[number],
                language: String(data.get('language')) as Language,
              },
            }),
          );
          users.reload();
        }}
      >
        <label for="staff-name">{w.account.name}</label>
        <input id="staff-name" name="name" required autocomplete="off" />
        <label for="staff-email">{w.account.email}</label>
        <input id="staff-email" name="email" type="email" required autocomplete="off" />
        <label for="staff-phone">{w.driver.phone}</label>
        <input id="staff-phone" name="phone" type="tel" required autocomplete="off" />
        <label for="staff-role">{w.account.role}</label>
        <select id="staff-role" name="role">
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {w.roles[r]}
            </option>
          ))}
        </select>
        <label for="staff-language">{w.language.label}</label>
        <select id="staff-language" name="language" defaultValue={language}>
          {DASHBOARD_LANGUAGES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code}>
              {l.name}
            </option>
          ))}
        </select>
      </ActionForm>
    </>
  );
}
