// The API reference that scripts/build generates (scripts/docs: TypeDoc on src/js/attention.d.ts
// and the files of src/js/types/ it re-exports, into dist/docs/api/) documents what they hold
// now: made after the types last changed, a page for every export, and every member of every
// exported interface on its page.
// Builds nothing: it reads dist/ and the types.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);
const typesFile = new URL('src/js/attention.d.ts', root);
const api = new URL('dist/docs/api/', root);
// The index and every file it re-exports (`export * from './types/x.js'`), one text.
const index = readFileSync(typesFile, 'utf8');
const typeFiles = [
  typesFile,
  ...[...index.matchAll(/^export \* from '(\.[^']+)\.js';$/gm)].map(
    ([, path]) => new URL(`${path}.d.ts`, typesFile),
  ),
];
const types = typeFiles.map((file) => readFileSync(file, 'utf8')).join('\n');

// TypeDoc's folder for each kind of declaration; a default export is documented as `default`.
const FOLDERS = { interface: 'interfaces', type: 'types', function: 'functions', class: 'classes' };
const EXPORT = /^export (default )?(?:declare )?(interface|type|function|class) (\w+)/gm;
const exported = [...types.matchAll(EXPORT)].map(([, isDefault, kind, name]) => ({
  kind,
  name: isDefault ? 'default' : name,
  page: new URL(`${FOLDERS[kind]}/${isDefault ? 'default' : name}.html`, api),
}));

/** The member names of `export interface Name ... {` up to its closing brace at column 0. */
function membersOf(name) {
  const start = types.search(new RegExp(`^export interface ${name}\\b`, 'm'));
  const body = types.slice(types.indexOf('{\n', start), types.indexOf('\n}', start));
  return [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??[(:<]/gm)].map(([, member]) => member);
}

test('the index re-exports every file of src/js/types/', () => {
  const inTypes = readdirSync(new URL('src/js/types/', root)).filter((f) => f.endsWith('.d.ts'));
  const reexported = typeFiles.slice(1).map((file) => file.pathname.split('/').pop());
  assert.deepEqual(reexported.sort(), inTypes.sort());
});

test('the reference was generated after the types last changed', () => {
  const page = new URL('index.html', api);
  assert.ok(existsSync(page), 'dist/docs/api/index.html is missing: run scripts/build');
  for (const file of typeFiles)
    assert.ok(
      statSync(page).mtimeMs >= statSync(file).mtimeMs,
      `dist/docs/api/ is older than ${file.pathname.split('/src/')[1]}: run scripts/build (or scripts/docs)`,
    );
});

test('every export of attention.d.ts has its page', () => {
  assert.ok(exported.length >= 20, `found only ${exported.length} exports in attention.d.ts`);
  for (const { kind, name, page } of exported)
    assert.ok(existsSync(page), `${kind} ${name}: no page ${page.pathname.split('/api/')[1]}`);
});

test("every member of every exported interface is on the interface's page", () => {
  let checked = 0;
  for (const { kind, name, page } of exported) {
    if (kind !== 'interface' || !existsSync(page)) continue; // the test above names it
    const html = readFileSync(page, 'utf8');
    for (const member of membersOf(name)) {
      assert.ok(html.includes(`>${member}<`), `${name}.${member} is not on ${name}.html`);
      checked += 1;
    }
  }
  assert.ok(checked >= 50, `only ${checked} interface members found`);
});
