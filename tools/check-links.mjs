#!/usr/bin/env node
// Checks the relative links of every Markdown file of the repository (README, docs/, CONTRIBUTING, the libraries'
// READMEs; not node_modules or build output): each must name a file or folder that exists, and each `#anchor` a
// heading of the Markdown file it points at, by GitHub's slug rules. Run by `npm test` (tools/run.mjs, beside
// Prettier) and by apps/api/test/doc-links.spec.ts, which also proves it fails on a broken link.
//
// Our own, and without dependencies, because it runs before anything is installed and nothing in node_modules fits:
// no link checker is installed (markdown-link-check, remark-validate-links), `marked` is there only as a dependency
// of a dependency, and what is needed is small: links outside code, headings, and GitHub's slugs.
//
// Usage: node tools/check-links.mjs [folder]   (default: the repository). Exit 1, naming each broken link.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders never read: installed, generated or built. */
const SKIPPED = new Set(['node_modules', 'dist', 'tmp', 'coverage', '.nx', '.data', '.tools', '.git', 'generated']);

/** Every `.md` file under `root`, skipping the folders above and never following a symbolic link. */
export function markdownFiles(root) {
  const found = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(path);
      } else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) found.push(path);
    }
  };
  walk(root);
  return found.sort();
}

/** The lines of a Markdown text outside fenced code blocks (``` or ~~~), with their 1-based numbers. */
function proseLines(text) {
  const lines = [];
  let fence;
  text.split('\n').forEach((line, index) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return;
    }
    if (marker) {
      fence = marker;
      return;
    }
    lines.push({ number: index + 1, line });
  });
  return lines;
}

/** A line with its inline code spans blanked out (a link inside backticks is not a link). */
const withoutCode = (line) => line.replace(/(`+)(?:(?!\1).)+?\1/g, (span) => ' '.repeat(span.length));

/**
 * GitHub's anchor for a heading (github-slugger): the text as shown (no code marks, emphasis, links or HTML), lower
 * case, every character that is not a letter, mark, number, connector, space or hyphen removed, spaces made hyphens.
 */
export function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/(\*\*|__|\*|\b_|_\b)/g, '');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
export function anchors(text) {
  const seen = new Map();
  const found = new Set();
  for (const { line } of proseLines(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      found.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) found.add(match[1]);
  }
  return found;
}

/** The link targets of a Markdown text: inline links and images, and reference definitions, outside code. */
export function links(text) {
  const found = [];
  for (const { number, line } of proseLines(text)) {
    const prose = withoutCode(line);
    for (const match of prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g))
      found.push({ line: number, target: match[1] });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+["'(].*)?$/.exec(prose);
    if (definition) found.push({ line: number, target: definition[1] });
  }
  return found;
}

/** Every broken relative link of the Markdown files under `root`, as "file:line: target: why". */
export function brokenLinks(root) {
  const problems = [];
  const anchorsOf = new Map();
  const anchorsIn = (file) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, anchors(readFileSync(file, 'utf8')));
    return anchorsOf.get(file);
  };
  for (const file of markdownFiles(root)) {
    for (const { line, target } of links(readFileSync(file, 'utf8'))) {
      // Another scheme (https:, mailto:, ...) or a protocol-relative address: not a file of this repository.
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      const where = `${relative(root, file).split(sep).join('/')}:${line}: ${target}`;
      const [rawPath, anchor] = target.split('#', 2);
      const path = decodeURIComponent(rawPath);
      const destination =
        path === '' ? file : resolve(path.startsWith('/') ? root : dirname(file), path.replace(/^\//, ''));
      if (!existsSync(destination)) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(destination).isDirectory() || !destination.toLowerCase().endsWith('.md')) continue;
      if (!anchorsIn(destination).has(decodeURIComponent(anchor)))
        problems.push(`${where}: no heading "${anchor}" in ${relative(root, destination).split(sep).join('/')}`);
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = brokenLinks(root);
  for (const problem of problems) console.error(`broken link: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(`links: ${markdownFiles(root).length} Markdown files, every relative link resolves`);
}
