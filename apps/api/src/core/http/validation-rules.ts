import { getMetadataStorage, type MetadataStorage } from 'class-validator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

const REMEMBERING = Symbol('transport:rememberingValidationRules');

type Storage = MetadataStorage & { [REMEMBERING]?: true };

/**
 * class-validator works out which rules apply to a class on every validation: `getTargetValidationMetadatas` filters
 * the class's own rules, then walks every class that has rules (hundreds of request classes here) with an
 * `instanceof` each to find the inherited ones. That was about a quarter of validating a list's query (14 of the 53
 * µs a request in a profile of the public vehicle list), on every request with a query or a body.
 *
 * The rules are decorators: they are all registered while the modules load, and none changes after. So the answer for
 * a class and a set of options is kept, and all that is kept is forgotten whenever a rule is added later (a class
 * defined at run time, a schema), so an answer never misses a rule. What is answered is the same list the library
 * computes (validation-rules.spec compares them); callers only read it. Safe to call more than once.
 */
export function rememberValidationRules(storage: Storage = getMetadataStorage() as Storage): void {
  if (storage[REMEMBERING]) return;
  storage[REMEMBERING] = true;
  const compute = storage.getTargetValidationMetadatas.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let kept = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  storage.addValidationMetadata = (metadata: ValidationMetadata) => {
    kept = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const options = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}\u0000${groups?.length ?? -1}`;
    let byOptions = kept.get(target);
    if (!byOptions) kept.set(target, (byOptions = new Map()));
    let rules = byOptions.get(options);
    if (!rules) byOptions.set(options, (rules = compute(target, schema, always, strictGroups, groups)));
    return rules;
  };
}
