import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import * as domain from '../src';
import * as node from '../src/node';
import * as testing from '../src/testing';

// Every ```ts block of the README runs here, against the library's source, and says what it claims: a statement that
// ends in `// → <value>` must give that value (toEqual), one that ends in `// throws <CODE>` must throw a DomainError
// with that code; `const x = ...; // → <value>` checks x. package.spec.ts type-checks the same blocks against the
// built declarations.
const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/^## (.+)$|```ts\n([\s\S]*?)```/gm)].reduce<{ heading: string; code: string }[]>(
  (found, match) => {
    if (match[1]) found.push({ heading: match[1], code: '' });
    else found[found.length - 1].code = match[2];
    return found;
  },
  [],
);
const examples = blocks.filter((block) => block.code !== '');

const claim = /^(\s*)(.*?);\s*\/\/\s*(→|throws)\s+(.+)$/;

/** The block with each claim turned into a check; how many claims it holds. */
function withChecks(code: string): { code: string; claims: number } {
  let claims = 0;
  const lines = code.split('\n').map((line, index) => {
    const found = claim.exec(line);
    if (!found) return line;
    claims++;
    const [, indent, statement, kind, expected] = found;
    const where = `line ${index + 1}: ${statement.trim()}`;
    if (kind === 'throws')
      return `${indent}__throws(() => { ${statement}; }, ${JSON.stringify(expected.trim())}, ${JSON.stringify(where)});`;
    const declared = /^(?:const|let) (\w+)(?::[^=]+)? = /.exec(statement);
    if (declared) return `${indent}${statement}; __expect(${declared[1]}, ${expected}, ${JSON.stringify(where)});`;
    return `${indent}__expect(${statement}, ${expected}, ${JSON.stringify(where)});`;
  });
  return { code: lines.join('\n'), claims };
}

async function run(code: string): Promise<{ checked: number }> {
  const { outputText } = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  const modules: Record<string, unknown> = {
    '@transport/domain': domain,
    '@transport/domain/node': node,
    '@transport/domain/testing': testing,
  };
  const load = (name: string) => {
    if (!(name in modules)) throw new Error(`a README example imports ${name}, which is not the library`);
    return modules[name];
  };
  let checked = 0;
  const check = (actual: unknown, expected: unknown, where: string) => {
    checked++;
    try {
      expect(actual).toEqual(expected);
    } catch (error) {
      throw new Error(`README example, ${where}\n${(error as Error).message}`);
    }
  };
  const throws = (action: () => void, code: string, where: string) => {
    checked++;
    let thrown: unknown;
    try {
      action();
    } catch (error) {
      thrown = error;
    }
    if (!(thrown instanceof domain.DomainError) || thrown.code !== code)
      throw new Error(`README example, ${where}: expected DomainError ${code}, got ${String(thrown)}`);
  };
  const body = new Function(
    'require',
    'exports',
    '__expect',
    '__throws',
    `return (async () => {\n${outputText}\n})();`,
  );
  await body(load, {}, check, throws);
  return { checked };
}

describe('the README examples', () => {
  it('has an example for each part of the library', () => {
    expect(examples.map((e) => e.heading)).toEqual([
      'Vehicle',
      'Driver',
      'Trip',
      'Payment transaction',
      'Owners and reference data',
    ]);
  });

  it.each(examples.map((e) => [e.heading, e.code]))('%s: runs and gives what its comments claim', async (_, code) => {
    const { code: checkedCode, claims } = withChecks(code);
    expect(claims).toBeGreaterThan(0);
    // A claim on a line the rewrite cannot read (say, the closing line of a call) would be checked by nobody.
    expect(checkedCode.match(/\/\/\s*(→|throws)/g) ?? []).toEqual([]);
    expect(await run(checkedCode)).toEqual({ checked: claims });
  });

  it('turns claims into checks, and a wrong claim fails', async () => {
    await expect(run(withChecks('const a = 1 + 1; // → 2\n[a].length; // → 1').code)).resolves.toEqual({
      checked: 2,
    });
    await expect(run(withChecks('1 + 1; // → 3').code)).rejects.toThrow('line 1: 1 + 1');
    await expect(
      run(
        withChecks(`throw new (require('@transport/domain').DomainError)('VEHICLE_NOT_INSPECTED', 'm'); // throws Y`)
          .code,
      ),
    ).rejects.toThrow('expected DomainError Y');
    await expect(run(withChecks('0; // throws Y').code)).rejects.toThrow('got undefined');
    await expect(run(`require('node:fs');`)).rejects.toThrow('which is not the library');
  });
});
