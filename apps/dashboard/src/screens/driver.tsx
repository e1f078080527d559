import type { components } from '@transport/api-client';
import { APPROVAL_ITEMS, type ApprovalItem } from '@transport/domain';
import { api, must, seen, type Driver, type Session } from '../api';
import { words as w } from '../i18n';
import { ActionForm, day, Loading, NotFound, Title, useLoad, useNotice } from '../ui';
import { History } from './history';

/**
 * The approval checks: the domain's own list. The contract's type must name exactly these: a missing or unknown check
 * fails to compile.
 */
type ContractCheck = keyof components['schemas']['ApprovalChecklistResponse'];
const SAME_CHECKS: [ContractCheck, ApprovalItem] extends [ApprovalItem, ContractCheck] ? true : never = true;
void SAME_CHECKS;

export function DriverScreen({ id, session }: { id: string; session: Session }) {
  const driver = useLoad(() => must(api.GET('/drivers/{id}', { params: { path: { id } } })), [id]);
  const { notice, announce } = useNotice();
  if (driver.error !== undefined) return <NotFound error={driver.error} retry={driver.reload} />;
  if (!driver.value) return <Loading />;
  const d = driver.value;
  const role = session.person.role;
  const reload = driver.reload;
  const problem = { what: w.driver.reload, reload };

  return (
    <>
      <Title>{w.driver.title(d.name)}</Title>
      {notice}
      <Facts d={d} />
      {role === 'approver' && !d.approved && (
        <ActionForm
          announce={announce}
          problem={problem}
          label={w.driver.approval}
          help={w.driver.approvalHelp}
          submit={w.driver.approve}
          done={w.driver.approvedNow}
          action={async (data) => {
            const approvalChecklist = Object.fromEntries(APPROVAL_ITEMS.map((c) => [c, data.has(c)])) as Record<
              ApprovalItem,
              boolean
            >;
            await must(api.POST('/drivers/{id}/approve', { ...seen(d), body: { approvalChecklist } }));
            reload();
          }}
        >
          <fieldset class="checklist">
            <legend>{w.driver.approval}</legend>
            {APPROVAL_ITEMS.map((check) => (
              <label key={check} class="check">
                <input type="checkbox" name={check} />
                {w.checklist[check]}
              </label>
            ))}
          </fieldset>
        </ActionForm>
      )}
      {role === 'approver' && d.approved && (
        <ActionForm
          announce={announce}
          problem={problem}
          label={w.driver.revoke}
          help={w.driver.revokeHelp}
          submit={w.driver.revokeSubmit}
          done={w.driver.revoked}
          danger
          action={async (data) => {
            await must(
              api.POST('/drivers/{id}/revoke', {
                ...seen(d),
                body: { reason: String(data.get('reason') ?? '').trim() },
              }),
            );
            reload();
          }}
        >
          <label for="reason">{w.driver.reason}</label>
          <textarea id="reason" name="reason" required maxLength={500} rows={3} />
        </ActionForm>
      )}
      {role === 'approver' && !d.dateActivated && (
        <ActionForm
          label={w.driver.activationKey}
          help={w.driver.activationKeyHelp}
          submit={w.driver.sendKey}
          done={w.driver.keySent}
          problem={problem}
          action={async () => {
            await must(api.POST('/drivers/{id}/activation-key', { params: { path: { id: d._id } } }));
            reload();
          }}
        />
      )}
      {(role === 'inspector' || role === 'approver') && (
        <>
          <ActionForm
            problem={problem}
            label={w.driver.renewal}
            submit={w.driver.saveRenewal}
            done={w.driver.renewed}
            action={async (data) => {
              await must(
                api.POST('/drivers/{id}/renew', {
                  ...seen(d),
                  body: { licenseExpiry: String(data.get('expiry') ?? '') },
                }),
              );
              reload();
            }}
          >
            <label for="expiry">{w.driver.newExpiry}</label>
            <input id="expiry" name="expiry" type="date" required />
          </ActionForm>
          <ActionForm
            problem={problem}
            label={w.driver.correct}
            submit={w.driver.saveCorrection}
            done={w.driver.corrected}
            action={async (data) => {
              const body: Record<string, string> = {};
              for (const name of ['name', 'phone', 'email'] as const) {
                const value = String(data.get(name) ?? '').trim();
                if (value && value !== d[name]) body[name] = value;
              }
              if (Object.keys(body).length === 0) throw new Error(w.vehicle.nothingToCorrect);
              await must(api.POST('/drivers/{id}/correct', { ...seen(d), body }));
              reload();
            }}
          >
            <label for="correct-name">{w.driver.name}</label>
            <input id="correct-name" name="name" defaultValue={d.name} autocomplete="off" />
            <label for="correct-phone">{w.driver.phone}</label>
            <input id="correct-phone" name="phone" type="tel" defaultValue={d.phone ?? ''} autocomplete="off" />
            <label for="correct-email">{w.driver.email}</label>
            <input id="correct-email" name="email" type="email" defaultValue={d.email ?? ''} autocomplete="off" />
          </ActionForm>
        </>
      )}
      <History entity="driver" id={id} me={session.person._id} version={d.__v} />
    </>
  );
}

function Facts({ d }: { d: Driver }) {
  return (
    <section class="panel" aria-labelledby="details">
      <h2 id="details">{w.vehicle.details}</h2>
      <p class="badges">
        <span class={d.approved ? 'badge ok' : 'badge'}>{d.approved ? w.driver.approved : w.driver.notApproved}</span>
        <span class={d.dateActivated ? 'badge ok' : 'badge'}>
          {d.dateActivated ? w.driver.activated : w.driver.notActivated}
        </span>
      </p>
      <dl class="facts">
        <dt>{w.driver.phone}</dt>
        <dd>{d.phone}</dd>
        <dt>{w.driver.email}</dt>
        <dd>{d.email}</dd>
        <dt>{w.driver.license}</dt>
        <dd>{d.license}</dd>
        <dt>{w.driver.licenseClass}</dt>
        <dd>{d.licenseClass}</dd>
        <dt>{w.driver.licenseExpiry}</dt>
        <dd>{day(d.licenseExpiry)}</dd>
      </dl>
    </section>
  );
}
