import { DomainError } from '../shared/domain-error';
import { ASSEMBLY_ROLES } from './assembly-user';
import { assertDuty, DUTIES, type Duty } from './duties';

describe('assembly duties', () => {
  it.each(Object.keys(DUTIES) as Duty[])('gives %s to its roles only', (duty) => {
    for (const role of ASSEMBLY_ROLES) {
      const allowed = (DUTIES[duty] as readonly string[]).includes(role);
      if (allowed) expect(() => assertDuty({ role }, duty)).not.toThrow();
      else expect(() => assertDuty({ role }, duty)).toThrow(DomainError);
    }
  });

  it('separates them: an inspector cannot approve, an approver cannot inspect, only an admin manages users', () => {
    const refusal = (role: 'inspector' | 'approver' | 'admin', duty: Duty) => {
      try {
        assertDuty({ role }, duty);
        return undefined;
      } catch (error) {
        return error as DomainError;
      }
    };
    expect(refusal('inspector', 'approveVehicle')).toMatchObject({
      code: 'DUTY_NOT_ALLOWED',
      kind: 'forbidden',
      message: 'Approving a vehicle is the duty of an assembly approver; this user is an inspector',
    });
    expect(refusal('approver', 'inspectVehicle')?.code).toBe('DUTY_NOT_ALLOWED');
    expect(refusal('admin', 'approveDriver')?.message).toMatch(/this user is an assembly admin$/);
    expect(refusal('inspector', 'manageAssemblyUsers')?.code).toBe('DUTY_NOT_ALLOWED');
    expect(refusal('admin', 'manageAssemblyUsers')).toBeUndefined();
    expect(refusal('approver', 'confirmAssemblyUsers')?.message).toBe(
      "Confirming an assembly's new approvers and admins is the duty of an assembly admin; this user is an approver",
    );
  });
});
