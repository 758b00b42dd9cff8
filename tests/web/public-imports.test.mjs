// The page is an app of the package: it uses only the package's public exports, imported by
// the package's name ('attention-explained', which web/build.mjs bundles from the source
// entry src/js/attention.mjs). A page file that reached into src/js by path would tie the page
// to the package's insides, and a name the page needs would be missing from its public API.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const web = join(root, 'web');

// The offline file's two entries wire the inlined single-file module (a classic script, for
// file://) into the package's loader and its trainer's worker protocol: that wiring is the
// build's, no app's, so it is not public.
const OFFLINE_WIRING = {
  'main-offline.mjs': ['src/js/module/api.mjs'],
  'train-worker-offline.mjs': ['src/js/module/api.mjs', 'src/js/training/train-worker-handler.mjs'],
};
const ALLOWED = OFFLINE_WIRING;

/** Every .mjs file under web/, as [path relative to web/, text]. */
function webModules(folder = web) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return webModules(path);
    return entry.name.endsWith('.mjs') ? [[relative(web, path), readFileSync(path, 'utf8')]] : [];
  });
}

/** The specifiers a module imports: static imports and re-exports, and import(). */
function specifiers(text) {
  const found = [];
  for (const pattern of [/\bfrom\s*'([^']+)'/g, /\bimport\s*'([^']+)'/g, /\bimport\(\s*'([^']+)'/g])
    for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** Each import of web/ that reaches outside web/, as "file -> target" (relative to the root). */
function importsOutsideWeb() {
  return webModules().flatMap(([file, text]) =>
    specifiers(text)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(root, resolve(dirname(join(web, file)), specifier)))
      .filter((target) => !target.startsWith('web/') && !target.startsWith('..'))
      .map((target) => [file, target]),
  );
}

test('web/ imports nothing of src/js by path: the package by its name only', () => {
  const outside = importsOutsideWeb();
  const offenders = outside
    .filter(([file, target]) => !(ALLOWED[file] ?? []).includes(target))
    .map(([file, target]) => `web/${file} imports ${target}`);
  assert.deepEqual(offenders, []);
  // The check sees imports by path: the offline wiring is found as one.
  assert.ok(outside.some(([file]) => file === 'main-offline.mjs'));
});

test('the page imports the package by its name, and that name is the source entry in the build', () => {
  const byName = webModules().filter(([, text]) =>
    specifiers(text).includes('attention-explained'),
  );
  assert.ok(byName.length >= 4, byName.map(([file]) => file).join(' '));
  const build = readFileSync(join(web, 'build.mjs'), 'utf8');
  assert.match(build, /'attention-explained': join\(root, 'src\/js\/attention\.mjs'\)/);
});
