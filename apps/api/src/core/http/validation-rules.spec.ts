import { getMetadataStorage, IsInt, IsString, MetadataStorage, validate } from 'class-validator';
import { rememberValidationRules } from './validation-rules';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

class Base {
  @IsString() name!: string;
}
class Child extends Base {
  @IsInt({ groups: ['admin'] }) level!: number;
}

describe('rememberValidationRules', () => {
  it("answers the library's own list for each class and set of options, computed once", () => {
    const storage = new MetadataStorage();
    const plain = new MetadataStorage();
    for (const s of [storage, plain]) {
      s.addValidationMetadata(ruleOf(Base, 'name'));
      s.addValidationMetadata(ruleOf(Child, 'level'));
    }
    const compute = jest.spyOn(MetadataStorage.prototype, 'getTargetValidationMetadatas');
    rememberValidationRules(storage);
    for (const [target, groups] of [
      [Child, undefined],
      [Child, ['admin']],
      [Child, []],
      [Base, undefined],
    ] as const) {
      const first = storage.getTargetValidationMetadatas(target, '', false, false, groups && [...groups]);
      expect(first).toEqual(plain.getTargetValidationMetadatas(target, '', false, false, groups && [...groups]));
      expect(storage.getTargetValidationMetadatas(target, '', false, false, groups && [...groups])).toBe(first);
    }
    // Four sets of options on the remembering storage, four on the plain one: each worked out once.
    expect(compute).toHaveBeenCalledTimes(8);
    // With the group, only the group's rules.
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, ['admin']).map((m) => m.propertyName)).toEqual(
      ['level'],
    );
    compute.mockRestore();
  });

  it('forgets what it kept when a rule is added after, so no answer misses one', () => {
    const storage = new MetadataStorage();
    storage.addValidationMetadata(ruleOf(Base, 'name'));
    rememberValidationRules(storage);
    rememberValidationRules(storage); // a second call changes nothing
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toHaveLength(1);
    storage.addValidationMetadata(ruleOf(Child, 'level'));
    expect(storage.getTargetValidationMetadatas(Child, '', false, false).map((m) => m.propertyName)).toEqual([
      'level',
      'name',
    ]);
  });

  it('validates through the global storage as before', async () => {
    rememberValidationRules();
    const child = Object.assign(new Child(), { name: 7, level: 'x' });
    // Without groups every rule applies (class-validator's default); with the group, only its rules.
    expect((await validate(child)).map((e) => e.property).sort()).toEqual(['level', 'name']);
    expect((await validate(child, { groups: ['admin'] })).map((e) => e.property).sort()).toEqual(['level']);
  });
});

/** The rule the decorators above registered for one property (in the library's own storage). */
function ruleOf(target: new () => object, propertyName: string): ValidationMetadata {
  const found = getMetadataStorage()
    .getTargetValidationMetadatas(target, '', false, false)
    .find((m) => m.target === target && m.propertyName === propertyName);
  if (!found) throw new Error(`no rule for ${propertyName}`);
  return found;
}
