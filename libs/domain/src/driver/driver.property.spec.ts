import fc from 'fast-check';
import { PlainTextHasher } from '../testing/fakes';
import { APPROVER, days, driverInput, passedDriverChecklist, ports, T0, onlyRefusals } from '../testing/fixtures';
import { Driver } from './driver';

const step = fc.constantFrom(
  'activateRight',
  'activateWrong',
  'approve',
  'revoke',
  'online',
  'offline',
  'busy',
  'free',
  'reissue',
  'reissueByOther',
  'correctPhone',
  'correctPhoneByOther',
  'approveByOther',
);

/** A second approver, beside the fixtures' inspector and approver. */
const OTHER = '65a000000000000000000009';

describe('Driver state machine (property)', () => {
  it('busy implies online, online implies approved and verified, a wrong key never locks the right one out, and whoever set the phone neither sends it a key nor approves', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const p = ports();
        const hasher = new PlainTextHasher();
        const registered = Driver.register(driverInput(), p, T0);
        const driver = registered.driver;
        let key = registered.activationKey;
        steps.forEach((s, i) => {
          const at = days(i + 1);
          const before = driver.toState();
          try {
            if (s === 'activateRight') driver.activate(key, at, hasher, 'phone');
            else if (s === 'activateWrong') driver.activate('abcdef', at, hasher, i % 2 ? 'phone' : 'stranger');
            else if (s === 'approve') driver.approve(passedDriverChecklist, APPROVER, at);
            else if (s === 'revoke') driver.revokeApproval('review', APPROVER, at);
            else if (s === 'online') driver.goOnline(at);
            else if (s === 'offline') driver.goOffline(at);
            else if (s === 'busy') driver.setBusy(true, at);
            else if (s === 'free') driver.setBusy(false, at);
            else if (s === 'reissue') key = driver.reissueActivationKey(p, APPROVER, at);
            else if (s === 'reissueByOther') key = driver.reissueActivationKey(p, OTHER, at);
            else if (s === 'correctPhone') driver.correct({ phone: `+2332440001${i % 10}${i % 7}` }, APPROVER, at);
            else if (s === 'correctPhoneByOther') driver.correct({ phone: `+2332440002${i % 10}${i % 7}` }, OTHER, at);
            else driver.approve(passedDriverChecklist, OTHER, at);
          } catch (error) {
            onlyRefusals(error); // refused transitions are fine; the invariants must hold regardless
          }
          const st = driver.toState();
          // Four eyes: nobody approves a driver whose current phone or email they set, nor sends a key to that phone.
          if (st.approved && !before.approved) expect([st.phoneSetBy, st.emailSetBy]).not.toContain(st.approvedBy);
          if (s.startsWith('reissue') && st.phoneSetBy === (s === 'reissue' ? APPROVER : OTHER))
            expect(st.activationKeyHash).toBe(before.activationKeyHash);
          if (st.busy) expect(st.online).toBe(true);
          if (st.online) expect(st.approved && st.verified).toBe(true);
          // Never locked for good: once its delay is over (at most fifteen minutes), a fresh key is always taken.
          expect(driver.activationWaitSeconds('phone', new Date(at.getTime() + 15 * 60_000))).toBe(0);
          expect(driver.activationWaitSeconds('stranger', new Date(at.getTime() + 15 * 60_000))).toBe(0);
        });
      }),
      { numRuns: 300 },
    );
  });
});
