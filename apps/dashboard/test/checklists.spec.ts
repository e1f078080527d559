import { APPROVAL_ITEMS, INSPECTION_ITEMS } from '@transport/domain';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { en } from '../src/words';
import { notRecordedItems } from '../src/screens/checklist-items';

// The vehicle inspection's ten items and the driver approval's four checks are the domain's (libs/domain): the
// dashboard walks the domain's lists and words each item by its name there. No browser needed: the words are plain.

const SRC = join(__dirname, '..', 'src');
const ITEMS: readonly string[] = [...INSPECTION_ITEMS, ...APPROVAL_ITEMS];

/** Every source file of the dashboard, with its path under src/. */
function sources(dir = SRC, under = ''): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name), `${under}${entry.name}/`)
      : /\.tsx?$/.test(entry.name)
        ? [{ path: `${under}${entry.name}`, text: readFileSync(join(dir, entry.name), 'utf8') }]
        : [],
  );
}

describe("the dashboard's checklists", () => {
  it("words every item of the domain's checklists and nothing else, in the domain's order", () => {
    expect(Object.keys(en.checklist)).toEqual(ITEMS);
    for (const item of ITEMS) expect([item, en.checklist[item]]).toEqual([item, expect.stringMatching(/^[A-Z]/)]);
  });

  it("keeps no list of items of its own: a screen walks the domain's", () => {
    // Two item names in a row in an array (`['spareTire', 'headlights', …]`) is a list written out again.
    const listed = /\[\s*(['"])(\w+)\1\s*,\s*(['"])(\w+)\3/g;
    const copies = sources().flatMap(({ path, text }) =>
      [...text.matchAll(listed)]
        .filter((m) => ITEMS.includes(m[2]) && ITEMS.includes(m[4]))
        .map((m) => `${path}: ${m[0].replace(/\s+/g, ' ')}`),
    );
    expect(copies).toEqual([]);
    for (const screen of ['screens/inspection.tsx', 'screens/driver.tsx'])
      expect([screen, readFileSync(join(SRC, screen), 'utf8')]).toEqual([
        screen,
        expect.stringMatching(/^import \{[^}]*\b(INSPECTION|APPROVAL)_ITEMS\b[^}]*\} from '@transport\/domain';$/m),
      ]);
  });
});

describe('a checklist of an older version (a vehicle imported from the original service)', () => {
  it('words the items it holds no result for as not recorded, and none for a vehicle not inspected', () => {
    const {
      fireExtinguisher: _f,
      emergencySignals: _e,
      ...older
    } = Object.fromEntries(INSPECTION_ITEMS.map((item) => [item, item !== 'brakes']));
    expect(notRecordedItems(older, en.checklist)).toEqual([
      en.checklist.fireExtinguisher,
      en.checklist.emergencySignals,
    ]);
    expect(notRecordedItems(Object.fromEntries(INSPECTION_ITEMS.map((i) => [i, true])), en.checklist)).toEqual([]);
    expect(notRecordedItems(undefined, en.checklist)).toEqual([]);
  });
});
