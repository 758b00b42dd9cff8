// The page is an app of the package: it uses only the package's public exports, imported by
// the package's name ('attention-explained', which web/build.mjs bundles from the source
// entry src/js/attention.mjs). A page file that reached into src/js by path would tie the page
// to the package's insides, and a name the page needs would be missing from its public API.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { importsByPath, root, specifiers, web, webModules } from './web-imports.mjs';

// The offline file's two entries wire the inlined single-file module (a classic script, for
// file://) into the package's loader and its trainer's worker protocol: that wiring is the
// build's, no app's, so it is not public.
const OFFLINE_WIRING = {
  'main-offline.mjs': ['src/js/module/api.mjs'],
  'train-worker-offline.mjs': ['src/js/module/api.mjs', 'src/js/training/train-worker-handler.mjs'],
};
const ALLOWED = OFFLINE_WIRING;

/** Each import of web/ that reaches outside web/, as "file -> target" (relative to the root). */
function importsOutsideWeb() {
  return importsByPath()
    .map(([file, target]) => [file, relative(root, join(web, target))])
    .filter(([, target]) => !target.startsWith('web/') && !target.startsWith('..'));
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
