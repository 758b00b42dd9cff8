// The API reference that scripts/build generates (scripts/docs: TypeDoc on src/js/attention.d.ts
// into dist/docs/api/) documents what attention.d.ts holds now: made after the types last
// changed, a page for every export, and every member of every exported interface on its page.
// Builds nothing: it reads dist/ and the types.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);
const typesFile = new URL('src/js/attention.d.ts', root);
const api = new URL('dist/docs/api/', root);
const types = readFileSync(typesFile, 'utf8');

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

test('the reference was generated after attention.d.ts last changed', () => {
  const index = new URL('index.html', api);
  assert.ok(existsSync(index), 'dist/docs/api/index.html is missing: run scripts/build');
  assert.ok(
    statSync(index).mtimeMs >= statSync(typesFile).mtimeMs,
    'dist/docs/api/ is older than src/js/attention.d.ts: run scripts/build (or scripts/docs)',
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
