import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const WORKSPACE_ROOT = resolve(__dirname, '../../..');
const CHECKER = join(WORKSPACE_ROOT, 'tools', 'check-links.mjs');

/** Runs the link check (as `npm test` does) over `folder`. */
function checkLinks(folder: string) {
  const run = spawnSync(process.execPath, [CHECKER, folder], { encoding: 'utf8' });
  return { status: run.status, broken: run.stderr.split('\n').filter((line) => line.startsWith('broken link: ')) };
}

function write(root: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

// The documentation is a map (README) and guides (docs/) that link to each other's sections: a moved or renamed
// section must not leave a link behind that leads nowhere.
describe('the link check of the Markdown files (tools/check-links.mjs)', () => {
  let fixture: string;
  beforeEach(() => {
    fixture = mkdtempSync(join(tmpdir(), 'doc-links-'));
  });
  afterEach(() => rmSync(fixture, { recursive: true, force: true }));

  it("finds every relative link and anchor of the repository's Markdown files resolved", () => {
    expect(checkLinks(WORKSPACE_ROOT)).toEqual({ status: 0, broken: [] });
  });

  it('fails on a missing file, a missing heading in another file and in its own, naming file, line and target', () => {
    write(fixture, {
      'README.md': [
        '# Map',
        '',
        '[a missing guide](docs/missing.md)',
        '[a missing section](docs/guide.md#no-such-heading)',
        '[a missing section here](#nowhere)',
        '[a good one](docs/guide.md#port-ports-and-how-to-move-them-v2) and [another](#map)',
      ].join('\n'),
      'docs/guide.md': '# Guide\n\n## `PORT`, ports: and how to move them (v2)\n',
    });
    expect(checkLinks(fixture)).toEqual({
      status: 1,
      broken: [
        'broken link: README.md:3: docs/missing.md: no such file',
        'broken link: README.md:4: docs/guide.md#no-such-heading: no heading "no-such-heading" in docs/guide.md',
        'broken link: README.md:5: #nowhere: no heading "nowhere" in README.md',
      ],
    });
  });

  it("reads anchors by GitHub's slugs, repeated headings numbered, and explicit ids", () => {
    write(fixture, {
      'README.md': [
        '# Setup',
        '## Setup',
        '## Übersicht & *emphasis* [linked](https://example.com) `code_name`',
        '<a id="custom-anchor"></a>',
        '[first](#setup) [second](#setup-1) [unicode](#übersicht--emphasis-linked-code_name) [explicit](#custom-anchor)',
        '[third](#setup-2)',
      ].join('\n'),
    });
    expect(checkLinks(fixture)).toEqual({
      status: 1,
      broken: ['broken link: README.md:6: #setup-2: no heading "setup-2" in README.md'],
    });
  });

  it('ignores code, other schemes and what is not ours (node_modules, build output), and accepts folders and images', () => {
    write(fixture, {
      'README.md': [
        '```md',
        '[in a fenced block](missing.md)',
        '```',
        'Inline: `[in a code span](missing.md)`; [external](https://example.com/missing.md) [mail](mailto:a@b.c)',
        '[a folder](docs/) ![a picture](docs/shot.png) [a source file](docs/code.ts#L3)',
        '[reference]: docs/guide.md',
      ].join('\n'),
      'docs/guide.md': '# Guide\n',
      'docs/shot.png': 'not really a picture',
      'docs/code.ts': 'export {};\n',
      'node_modules/some-package/README.md': '[broken](nowhere.md)\n',
      'dist/README.md': '[broken](nowhere.md)\n',
    });
    expect(checkLinks(fixture)).toEqual({ status: 0, broken: [] });
    write(fixture, { 'docs/broken.md': '[reference]: ../nowhere.md\n' });
    expect(checkLinks(fixture)).toEqual({
      status: 1,
      broken: ['broken link: docs/broken.md:1: ../nowhere.md: no such file'],
    });
  });
});
