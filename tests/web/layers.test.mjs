// The page is a house of layers, and imports run down it only: a module imports modules of
// its own part (its folder, or itself at the top of web/) and of the parts on the floors below,
// never of a part on its floor or above. Leaves first: the shared helpers; the model (numbers,
// no DOM); drawing parts and the link's state; the widgets and learning tools (which never
// import each other, nor do stages and widgets: web/README.md); the stages; the text tables
// (which merge each stage's own text); the app; startApp (app.mjs); what starts it: the served
// and offline entries and the <attention-explainer> element. An import up the house would tie a lower part to what is built on it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importsByPath, web, webModules } from './web-imports.mjs';

/** The floors, lowest first; a part is a folder of web/ or a file at its top. */
const FLOORS = [
  [
    'format.mjs',
    'dom.mjs',
    'idle.mjs',
    'popup-place.mjs',
    'keyboard.mjs',
    'timeline.mjs',
    'roles.mjs',
  ],
  ['model/'],
  ['draw/', 'url-state.mjs'],
  ['widgets/', 'tools/'],
  ['stages/'],
  ['i18n/'],
  ['app/'],
  ['app.mjs'],
  ['main-served.mjs', 'main-offline.mjs', 'train-worker-offline.mjs', 'element/', 'build.mjs'],
];
/**
 * The imports up the house that are known and still to be fixed, each "file -> target": the test
 * fails when one goes (take it off this list) as when a new one comes.
 */
const PENDING = [
  // Chapter 4's stages read the sampling temperature and the held-out interval of the app's
  // language run: those two constants belong in model/language.mjs.
  'stages/language/characters.mjs -> app/language-run.mjs',
  'stages/language/train.mjs -> app/language-run.mjs',
];

/** A module's part: its top folder under web/, or itself when it is a file at the top. */
const partOf = (path) => (path.includes('/') ? `${path.split('/')[0]}/` : path);
const floorOf = (part) => FLOORS.findIndex((parts) => parts.includes(part));

/** Each import that does not run down the house (or stay in its part), as "file -> target". */
function importsNotDown() {
  return importsByPath()
    .filter(([, target]) => !target.startsWith('..')) // outside web/: public-imports.test.mjs
    .filter(([file, target]) => {
      const from = partOf(file);
      const to = partOf(target);
      return from !== to && floorOf(to) >= floorOf(from);
    })
    .map(([file, target]) => `${file} -> ${target}`);
}

test('every part of the page has its floor', () => {
  const parts = new Set(webModules().map(([file]) => partOf(file)));
  const floorless = [...parts].filter((part) => floorOf(part) < 0);
  assert.deepEqual(floorless, [], 'parts of web/ with no floor in FLOORS: give each one');
  assert.ok(parts.size >= 20, `only ${parts.size} parts found`);
});

test('no module of web/ imports a part on its floor or above (imports run down the house)', () => {
  const up = importsNotDown();
  assert.deepEqual(
    up.filter((edge) => !PENDING.includes(edge)),
    [],
    'imports up the house (or across a floor)',
  );
  assert.deepEqual(
    PENDING.filter((edge) => !up.includes(edge)),
    [],
    'fixed: take these off PENDING',
  );
});

test('the imports the check reads are the page’s own files, and it sees every floor import', () => {
  // The served entry and the element import the built package beside them (./attention.mjs in
  // dist/): the only imports of web/ whose target is not a file of web/.
  const missing = importsByPath()
    .filter(([, target]) => !target.startsWith('..') && !existsSync(join(web, target)))
    .map(([file, target]) => `${file} -> ${target}`);
  assert.deepEqual(
    [...new Set(missing)],
    [
      'element/attention-explainer.mjs -> element/attention.mjs',
      'main-served.mjs -> attention.mjs',
    ],
  );
  // The house is built of imports down it: the stages alone import a hundred of them.
  const down = importsByPath().filter(([file]) => partOf(file) === 'stages/');
  assert.ok(down.length >= 100, `only ${down.length} imports of stages/`);
});
