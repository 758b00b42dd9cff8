// What README.md states about the built files and the repository, checked against them: the
// sizes in its one Size table against dist/ (and the tarball npm pack would make), the layout
// map (docs/layout.md, which the README links to) against the tree, and its performance
// headlines against docs/benchmarks.md; and that the README stays short (the reference detail
// lives in docs/). Builds nothing: run scripts/build first (scripts/test does).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const TOLERANCE = 0.05; // a stated size may be off by 5%: other changes move sizes a little

/**
 * The text of the section of `text` (README.md unless named) that starts with `heading` (a whole
 * line) up to the next heading.
 */
function section(heading, text = readme, file = 'README.md') {
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `${file} has no "${heading}"`);
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(/^#{1,3} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

const sizeSection = section('### Size');
const sizeRows = sizeSection
  .split('\n')
  .filter((line) => line.startsWith('|') && !/^\| (-|file)/.test(line))
  .map((line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
const number = (cell) => (cell === '' ? null : Number(cell.replace(/,/g, '')));
const gzipped = (bytes) => gzipSync(bytes, { level: 9 }).length;

test('every size in the Size table is within 5% of the built file', () => {
  assert.ok(
    existsSync(new URL('dist/attention.wasm', root)),
    'dist/ is missing: run scripts/build',
  );
  let checked = 0;
  const off = []; // every row that is off, with all its measured sizes, to fix the table at once
  for (const [what, bytesCell, gzipCell] of sizeRows) {
    if (/tarball/.test(what)) continue; // the next test
    // The files a row names (one, or several summed), each a file of dist/.
    const files = [...what.matchAll(/`([\w.-]+)`/g)].map(([, name]) => name);
    assert.ok(files.length > 0, `the Size row "${what}" names no file of dist/`);
    let bytes = 0;
    let gzip = 0;
    for (const name of files) {
      const contents = readFileSync(new URL(`dist/${name}`, root));
      bytes += contents.length;
      gzip += gzipped(contents);
    }
    const within = (stated, measured) => Math.abs(stated - measured) <= TOLERANCE * measured;
    if (!within(number(bytesCell), bytes) || !within(number(gzipCell), gzip))
      off.push(`${what}: ${bytes} bytes, ${gzip} gzipped (README: ${bytesCell}, ${gzipCell})`);
    checked += 2;
  }
  assert.deepEqual(off, [], "README's Size table is off from dist/ (the rows, as measured)");
  assert.ok(checked >= 10, `only ${checked} sizes checked`);
});

test("the tarball's size is within 5% of what npm pack makes", () => {
  const row = sizeRows.find(([what]) => /tarball/.test(what));
  assert.ok(row, 'the Size table has no tarball row');
  const [{ size }] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const stated = number(row[2]);
  assert.ok(
    Math.abs(stated - size) <= TOLERANCE * size,
    `README says the tarball is ${stated} bytes; npm pack makes ${size}`,
  );
});

/** The table of what each bundler adds, which tests/apps checks against its own measurements. */
const appsTable = () => {
  const start = readme.indexOf('<!-- apps:');
  assert.ok(start >= 0, 'README.md has no bundlers table');
  return readme.slice(start, readme.indexOf('\n\n', readme.indexOf('\n|', start)));
};

test('sizes are stated only in the Size table (and the bundlers table, checked by tests/apps)', () => {
  const elsewhere = readme.replace(sizeSection, '').replace(appsTable(), '');
  const claims = elsewhere.match(/\d[\d,.]*\s?(KiB|KB|kB)\b/g) ?? [];
  assert.deepEqual(claims, [], 'a size outside the Size table: put it in the table');
});

// The layout map: entries at indents 0, 2, 4, 6 (a path, then its description), nested under
// the folder above them; deeper lines continue a description.
const layoutPage = readFileSync(new URL('docs/layout.md', root), 'utf8');
const layout = section('## Layout', layoutPage, 'docs/layout.md')
  .split('```text\n')[1]
  .split('```')[0];
const entries = [];
{
  const parents = [];
  for (const line of layout.split('\n')) {
    const indent = line.search(/\S/);
    if (indent < 0 || indent > 6) continue;
    const name = line.slice(indent).split(/\s/)[0];
    while (parents.length && parents.at(-1).indent >= indent) parents.pop();
    const path = (parents.at(-1)?.path ?? '') + name;
    entries.push(path);
    if (name.endsWith('/')) parents.push({ indent, path });
  }
}

/** A path of the map exists: a file, a folder (ending in /), or `name.*` (files named so). */
function exists(path) {
  if (!path.endsWith('.*')) return existsSync(new URL(path, root));
  const slash = path.lastIndexOf('/');
  const folder = new URL(path.slice(0, slash + 1), root);
  const stem = path.slice(slash + 1, -1);
  return existsSync(folder) && readdirSync(folder).some((file) => file.startsWith(stem));
}

test('every path in the layout map exists', () => {
  assert.ok(entries.length >= 30, `only ${entries.length} entries in the layout map`);
  const missing = entries.filter((path) => !exists(path));
  assert.deepEqual(missing, [], 'paths in the layout map that do not exist');
});

test('every folder of src/ and web/ is in the layout map', () => {
  for (const top of ['src', 'web']) {
    const folders = readdirSync(new URL(`${top}/`, root)).filter((name) =>
      statSync(new URL(`${top}/${name}`, root)).isDirectory(),
    );
    for (const folder of folders)
      assert.ok(entries.includes(`${top}/${folder}/`), `${top}/${folder}/ is not in the map`);
  }
});

test("the performance headlines are numbers of docs/benchmarks.md's run", () => {
  const benchmarks = readFileSync(new URL('docs/benchmarks.md', root), 'utf8');
  const headlines = section('## Performance')
    .split('\n')
    .filter((line) => /^\s*-|^\s{2}\S/.test(line))
    .join(' ');
  const figures = headlines.match(/\d+(\.\d+)?( ms|×|%)/g) ?? [];
  assert.ok(figures.length >= 5, `only ${figures.length} figures in the headlines`);
  for (const figure of figures)
    assert.ok(benchmarks.includes(figure), `"${figure}" is not in docs/benchmarks.md`);
});

test('the README stays short: at most 400 lines, linking to the pages that hold the detail', () => {
  const lines = readme.split('\n').length;
  assert.ok(lines <= 400, `README.md has ${lines} lines`);
  for (const page of ['docs/module.md', 'docs/layout.md', 'docs/benchmarks.md']) {
    assert.ok(readme.includes(`](${page})`), `README.md does not link to ${page}`);
    assert.ok(existsSync(new URL(page, root)), `${page} does not exist`);
  }
});
