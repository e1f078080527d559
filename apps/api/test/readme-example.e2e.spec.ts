import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier, WORKSPACE_ROOT } from './support/test-app';

interface Example {
  path: string;
  authorized: boolean;
  claim: string;
}

/**
 * The README's example of the interface (its `sh` block under "The interface"): each `curl` command with the comment
 * lines under it, which say what it answers. Read from the README itself, so the example and this test cannot drift.
 */
function readmeExamples(): Example[] {
  const readme = readFileSync(join(WORKSPACE_ROOT, 'README.md'), 'utf8');
  const block = /^## The interface\n[\s\S]*?^```sh\n([\s\S]*?)^```/m.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no sh example under "## The interface"');
  const examples: Example[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('curl ')) {
      const url = /'http:\/\/127\.0\.0\.1:3000([^']+)'/.exec(line)?.[1];
      if (!url) throw new Error(`no local URL in the README's example: ${line}`);
      examples.push({ path: url, authorized: line.includes('Authorization: '), claim: '' });
    } else if (line.startsWith('# ') && examples.length > 0) {
      examples[examples.length - 1].claim += `${line.slice(2)} `;
    }
  }
  return examples;
}

// Examples in documentation run in the tests and assert what their comments claim (the style guide).
describeOnEachTier("the README's example of the interface", (tier) => {
  const { fixture: f, http } = appOnTier(tier, { fixture: true });
  const examples = readmeExamples();

  it('has the two commands it explains: a merchant status check and the public vehicle list', () => {
    expect(examples.map((e) => [e.path.split('?')[0], e.authorized])).toEqual([
      ['/payment/check_transaction', true],
      ['/vehicles/all', false],
    ]);
  });

  it('answers an unknown reference as its comment says: status, content type and code', async () => {
    const [check] = examples;
    const status = Number(/HTTP\/1\.1 (\d{3})/.exec(check.claim)?.[1]);
    const type = /Content-Type: ([\w/+.-]+)/.exec(check.claim)?.[1];
    const code = /"code": "(\w+)"/.exec(check.claim)?.[1];
    const res = await http().get(check.path).set('Authorization', f.keys.merchantA);
    expect([res.status, res.headers['content-type']?.split(';')[0], res.body.code, res.body.status]).toEqual([
      status,
      type,
      code,
      status,
    ]);
  });

  it('lists vehicles in the public view with exactly the fields its comment names, and a Link when more exist', async () => {
    const [, list] = examples;
    const fields =
      /public view: ([^;]+);/
        .exec(list.claim)?.[1]
        .split(',')
        .map((field) => field.trim()) ?? [];
    const limit = Number(new URLSearchParams(list.path.split('?')[1]).get('limit'));
    expect(list.claim).toContain(`a JSON array of ${limit === 2 ? 'two' : limit} vehicles`);
    const res = await http().get(list.path).expect(200);
    expect(res.body).toHaveLength(limit);
    for (const vehicle of res.body as Record<string, unknown>[])
      expect(fields).toEqual(expect.arrayContaining(Object.keys(vehicle)));
    // The fixture's first vehicle is linked to a station and a union: every field named appears on some vehicle.
    const linked = await http()
      .get(`/vehicles/all?registrationNumber=${encodeURIComponent('GR 1000-24')}`)
      .expect(200);
    expect(Object.keys(linked.body[0]).sort()).toEqual([...fields].sort());
    expect(res.headers.link).toMatch(/rel="next"/);
  });
});
