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

// The performance headlines, each figure checked against its own row and column of
// docs/benchmarks.md's tables. HEADLINES holds each bullet of README's "In brief" as it reads,
// with a {name} where a figure stands (a number, its unit if it has one); FIGURES says which
// cell each name is: { table: which table, row: its row, column: its column }. A table is found
// by its innermost heading (`under`, a ### / #### heading or a bold line above it) and a column
// it has; a row by some of its cells (a string the whole cell, a RegExp a part of it). `pick`
// takes the least or greatest of the column over every matching row (a range's two ends);
// `after` reads the figure after that text inside the cell (a targets row lists several).
// The cell's first figure is the one compared: "54.0 ms · 39.8" says 54.0 ms.
const HEADLINES = [
  'One thread, N = 1024, 8 heads, head size 64, Node: {ours} per call (SIMD128 build), {relaxed} (Relaxed SIMD), onnxruntime-web {ort} ({oursOverOrt}, {relaxedOverOrt}); at N = 4096, {peak} of the mul + add peak measured in the same rounds (Relaxed SIMD: {relaxedPeak} of the FMA peak; in Chromium {chromiumPeak} and {chromiumRelaxedPeak}).',
  'Two threads (`createAttention({ threads: 2 })`, wasm threads), N = 256, 8 heads: {threads} in Node against {ortThreads} for onnxruntime-web on 2 threads ({threadsOverOrt}), and {chromiumThreadsOverOrt} in a cross-origin isolated Chromium page; at N = 1024, {threadsOverOne} our one thread in Node, {chromiumThreadsOverOne} in Chromium.',
  'Decoding one token over a resident KV cache of 4096 keys (8 heads): {decode}, against {ortDecode} for onnxruntime-web ({decodeOverOrt}).',
  "Gradients (`attentionBackward`, N = 256 and 1024, 8 heads): {gradLeast}–{gradMost} tfjs's `tf.grads` in Node, {chromiumGradLeast}–{chromiumGradMost} in Chromium, at {gradPeakLeast}–{gradPeakMost} of the SIMD128 peak. A training step of the induction model: {step} in Node, tfjs-wasm {tfjsStep} ({stepOverTfjs}); in Chromium, in a Worker, {chromiumStepOverTfjs}; the larger model (4 layers, MLP 512) {largerOverTfjs} and {chromiumLargerOverTfjs}. The page is interactive {ready} after navigation.",
];
const NODE = /^Node\b/;
const CHROMIUM = /^Chromium\b/;
// The training table's one-thread rows (its threads rows name their thread counts after these).
const NODE_ONE_THREAD = /^Node [\d.]+$/;
const CHROMIUM_WORKER = /^Chromium .*, ours in a Worker$/;
const at = (n, heads) => ({ N: String(n), heads: String(heads) });
const one = { table: { under: NODE, column: 'ours % of mul + add peak' }, row: at(1024, 8) };
const relaxed = (under, n) => ({ table: { under, column: 'ours Relaxed SIMD' }, row: at(n, 8) });
const cores = (under, n) => ({ table: { under, column: 'ours, 2 wasm threads' }, row: at(n, 8) });
const targets = (where) => ({
  table: { column: 'target' },
  row: { target: new RegExp(`^${where}: 2 wasm threads ≥ [\\d.]+× ours on one thread`) },
  column: 'measured',
  after: 'N=1024 h=8: ',
});
const decode = {
  table: { under: NODE, column: 'ours resident' },
  row: { workload: 'B=1 8 heads D=64 L=4096' },
};
const gradients = (where, column, pick) => ({
  table: { column: 'tfjs ÷ ours' },
  row: { where, N: /./ },
  column,
  pick,
});
const training = (where, model) => ({
  table: { column: 'batch × T' },
  row: { where, model },
  column: 'tfjs ÷ ours',
});
const FIGURES = {
  ours: { ...one, column: 'ours' },
  relaxed: { ...relaxed(NODE, 1024), column: 'ours Relaxed SIMD' },
  ort: { ...one, column: 'onnxruntime-web' },
  oursOverOrt: { ...relaxed(NODE, 1024), column: 'SIMD128 ÷ ort' },
  relaxedOverOrt: { ...relaxed(NODE, 1024), column: 'relaxed ÷ ort' },
  peak: { ...one, row: at(4096, 8), column: 'ours % of mul + add peak' },
  relaxedPeak: { ...relaxed(NODE, 4096), column: 'relaxed % of FMA peak' },
  chromiumPeak: {
    table: { under: CHROMIUM, column: 'ours % of mul + add peak' },
    row: at(4096, 8),
    column: 'ours % of mul + add peak',
  },
  chromiumRelaxedPeak: { ...relaxed(CHROMIUM, 4096), column: 'relaxed % of FMA peak' },
  threads: { ...cores(NODE, 256), column: 'ours, 2 wasm threads' },
  ortThreads: { ...cores(NODE, 256), column: 'ORT 2 threads' },
  threadsOverOrt: { ...cores(NODE, 256), column: '2 wasm threads ÷ ORT 2t' },
  chromiumThreadsOverOrt: { ...cores(CHROMIUM, 256), column: '2 wasm threads ÷ ORT 2t' },
  threadsOverOne: targets('node'),
  chromiumThreadsOverOne: targets('chromium'),
  decode: { ...decode, column: 'ours resident' },
  ortDecode: { ...decode, column: 'ORT 1 thread' },
  decodeOverOrt: { ...decode, column: 'resident ÷ ORT 1t' },
  gradLeast: gradients(NODE, 'tfjs ÷ ours', 'least'),
  gradMost: gradients(NODE, 'tfjs ÷ ours', 'most'),
  chromiumGradLeast: gradients(CHROMIUM, 'tfjs ÷ ours', 'least'),
  chromiumGradMost: gradients(CHROMIUM, 'tfjs ÷ ours', 'most'),
  gradPeakLeast: gradients(/./, 'ours % of peak', 'least'),
  gradPeakMost: gradients(/./, 'ours % of peak', 'most'),
  step: { ...training(NODE_ONE_THREAD, /^induction/), column: 'ours' },
  tfjsStep: { ...training(NODE_ONE_THREAD, /^induction/), column: 'tfjs-wasm' },
  stepOverTfjs: training(NODE_ONE_THREAD, /^induction/),
  chromiumStepOverTfjs: training(CHROMIUM_WORKER, /^induction/),
  largerOverTfjs: training(NODE_ONE_THREAD, /^larger/),
  chromiumLargerOverTfjs: training(CHROMIUM_WORKER, /^larger/),
  ready: {
    table: { column: 'measure' },
    row: { measure: /^navigation to the first interactive step/ },
    column: 'result',
  },
};

const FIGURE = /\d+(?:\.\d+)?(?: ms|×|%)?/;
const LEADING_FIGURE = new RegExp(`^${FIGURE.source}`);
const cells = (line) =>
  line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());

/** Every table of a markdown page: { under, columns, rows } (rows as { column: cell }). */
function tablesOf(text) {
  const tables = [];
  let under = '';
  let table = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      table = null;
      const heading = /^#{3,4} (.*)/.exec(line) ?? /^\*\*(.+?)\*\*(.*)/.exec(line);
      if (heading) under = heading.slice(1).join('');
      continue;
    }
    if (!table) {
      table = { under, columns: cells(line), rows: [] };
      tables.push(table);
    } else if (!/^\|\s*:?-/.test(line)) {
      const row = {};
      cells(line).forEach((cell, i) => (row[table.columns[i]] = cell));
      table.rows.push(row);
    }
  }
  return tables;
}

const matches = (cell, want) => (want instanceof RegExp ? want.test(cell) : cell === want);
const numberOf = (figure) => Number.parseFloat(figure);
const show = (row) => JSON.stringify(row, (_, v) => (v instanceof RegExp ? String(v) : v));

/** The figure a FIGURES entry points at, as its cell states it, or why there is none. */
function figureAt(tables, { table: where, row, column, pick, after }) {
  const rowsOf = (t) =>
    t.rows.filter((r) => Object.entries(row).every(([name, want]) => matches(r[name] ?? '', want)));
  const table = tables.find(
    (t) =>
      t.columns.includes(where.column) &&
      (!where.under || where.under.test(t.under)) &&
      rowsOf(t).length > 0,
  );
  if (!table)
    return {
      missing: `no table with a column "${where.column}" under ${where.under} and a row ${show(row)}`,
    };
  const rows = rowsOf(table);
  if (!pick && rows.length > 1)
    return { missing: `${rows.length} rows of "${table.under}" match ${show(row)}` };
  const figures = rows.map((r) => {
    const cell = r[column] ?? '';
    const from = after ? cell.indexOf(after) : 0;
    return from < 0 ? null : LEADING_FIGURE.exec(cell.slice(from + (after ?? '').length))?.[0];
  });
  if (figures.some((f) => !f))
    return { missing: `no figure in column "${column}" of ${table.under}` };
  figures.sort((x, y) => numberOf(x) - numberOf(y));
  return { figure: pick === 'most' ? figures.at(-1) : figures[0] };
}

/** The README's headline bullets, each on one line. */
const headlines = section('## Performance')
  .split(/\n(?=- )/)
  .filter((item) => item.startsWith('- '))
  .map((item) => item.slice(2).split(/\n\n/)[0].replace(/\s+/g, ' ').trim());

/** What each {name} of a headline says, read from the README's bullet it matches. */
function figuresStated(template, bullet) {
  const names = [];
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const pattern = escaped.replace(/\{(\w+)\}/g, (_, name) => {
    names.push(name);
    return `(${FIGURE.source})`;
  });
  const found = new RegExp(`^${pattern}$`).exec(bullet);
  return found && Object.fromEntries(names.map((name, i) => [name, found[i + 1]]));
}

/** Each stated figure that is not its own cell's, as "name: README says x, the table y". */
function wrongFigures(readmeBullets, benchmarksText) {
  const tables = tablesOf(benchmarksText);
  const wrong = [];
  readmeBullets.forEach((bullet, i) => {
    const stated = figuresStated(HEADLINES[i], bullet);
    if (!stated) return wrong.push(`bullet ${i + 1} no longer reads as HEADLINES[${i}]: ${bullet}`);
    for (const [name, figure] of Object.entries(stated)) {
      const cell = figureAt(tables, FIGURES[name]);
      const unit = figure.replace(/^[\d.]+/, '');
      const same =
        cell.figure && numberOf(cell.figure) === numberOf(figure) && cell.figure.endsWith(unit);
      if (!same)
        wrong.push(`${name}: README says ${figure}, the table ${cell.figure ?? cell.missing}`);
    }
  });
  return wrong;
}

const benchmarks = readFileSync(new URL('docs/benchmarks.md', root), 'utf8');

test("each performance headline states its own row's figure of docs/benchmarks.md's run", () => {
  assert.equal(headlines.length, HEADLINES.length, 'the In brief bullets and HEADLINES');
  assert.deepEqual(wrongFigures(headlines, benchmarks), []);
  // Every figure of the headlines is one of HEADLINES' {names}, and each name has its cell.
  const names = HEADLINES.flatMap((h) => [...h.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  assert.deepEqual(names.toSorted(), Object.keys(FIGURES).toSorted());
  assert.ok(names.length >= 30, `only ${names.length} figures checked`);
  for (const template of HEADLINES) {
    const literal = template.replace(/\{\w+\}/g, '');
    assert.doesNotMatch(literal, /\d(?: ms|×|%)/, `a figure written into HEADLINES: ${template}`);
  }
});

test("a headline that quotes another row's or column's figure is caught", () => {
  const swapped = [
    ['52.6 ms per call', '3.44 ms per call'], // N = 256's time, under N = 1024
    ['50.1 ms', '54.7 ms'], // Chromium's Relaxed SIMD time, under Node
    ['(1.66×, 1.74×)', '(1.74×, 1.66×)'], // two columns swapped
    ['14.4–42.6×', '14.4–33.3×'], // Chromium's highest, under Node
    ['0.934 ms', '0.119 ms'], // the 1024-key cache's time
  ];
  for (const [right, other] of swapped) {
    const i = headlines.findIndex((h) => h.includes(right));
    assert.ok(i >= 0, `no headline says ${right}`);
    const edited = headlines.with(i, headlines[i].replace(right, other));
    assert.ok(benchmarks.includes(other.match(FIGURE)[0]), `${other} is a figure of the run`);
    assert.notDeepEqual(wrongFigures(edited, benchmarks), [], `${other} passed for ${right}`);
  }
});

test('the README stays short: at most 400 lines, linking to the pages that hold the detail', () => {
  const lines = readme.split('\n').length;
  assert.ok(lines <= 400, `README.md has ${lines} lines`);
  for (const page of ['docs/module.md', 'docs/layout.md', 'docs/benchmarks.md']) {
    assert.ok(readme.includes(`](${page})`), `README.md does not link to ${page}`);
    assert.ok(existsSync(new URL(page, root)), `${page} does not exist`);
  }
});
