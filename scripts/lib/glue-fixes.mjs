// Link-time fixes of the glue Emscripten 3.1.6 generates, run by emcc --js-transform on each
// module target (CMakeLists.txt) before the glue is minified. Each target names the fix sets
// it needs; every fix must match exactly once, so a new Emscripten cannot silently drop one.
//
// Usage: node scripts/lib/glue-fixes.mjs <set>[,<set>...] <glue.js> (rewrites the file in place)
//
// embind (every module): Embind converts a value_object (AttentionCall, TraceCall, ... every
//   struct registered with emscripten::value_object) by walking its table of fields with
//   `for (name in fields)`, where `fields` is a plain object. for-in also walks enumerable
//   properties inherited from Object.prototype: after `Object.prototype.foo = 1` it finds a
//   field "foo", allocates the struct in wasm memory, then fails on "fields.foo.write is not a
//   function" without freeing it. A table with no prototype makes the walk see the registered
//   fields only. The JS layer cannot fix this from outside: the table is private to the glue.
//
// pthreads (the wasm threads builds, browsers' and Node's): the pthread runtime walks an
//   array (tlsInitFunctions) and a table (pthreads) with for-in. With any enumerable property
//   on Object.prototype the first calls it as a function and throws "PThread.tlsInitFunctions[i]
//   is not a function" outside any promise: Node's process dies, and a page's
//   createAttention({ threads }) never settles. Both walk their own items only here.
//
// helpers (the browsers' threads build): the glue starts each helper itself, as
//   new Worker(new URL('attention-threads.worker.js', import.meta.url)) or from locateFile: a
//   classic worker script that imports the glue again by a computed URL, which no bundler can
//   follow (Vite inlines it as a data: URL, webpack leaves the import out), and whose failure
//   to load nothing reports. Here the loader starts them instead (Module.createHelperWorker,
//   src/js/module/threads.mjs): a module worker started by a literal URL bundlers see, watched for
//   failures.
import { readFileSync, writeFileSync } from 'node:fs';

/** Fix sets: [what it fixes, pattern (matched once), replacement]. */
const FIXES = {
  embind: [
    // _embind_finalize_value_object: the field table walked by toWireType and fromWireType.
    ['the value objects’ field table', /var fields = \{\};/, 'var fields = Object.create(null);'],
  ],
  pthreads: [
    [
      'PThread.threadInit’s walk of tlsInitFunctions',
      /for \(var i in PThread\.tlsInitFunctions\) \{/,
      'for (var i = 0; i < PThread.tlsInitFunctions.length; ++i) {',
    ],
    [
      'PThread.terminateAllThreads’s walk of pthreads',
      /for \(var t in PThread\.pthreads\) \{/,
      'for (var t of Object.keys(PThread.pthreads)) {',
    ],
  ],
  helpers: [
    [
      'PThread.allocateUnusedWorker',
      /allocateUnusedWorker:\s*function\(\)\s*\{[^]*?PThread\.unusedWorkers\.push\(new Worker\(pthreadMainJs\)\);\s*\}/,
      "allocateUnusedWorker: function() {\n        PThread.unusedWorkers.push(Module['createHelperWorker']());\n      }",
    ],
  ],
};

const [sets, file] = process.argv.slice(2);
let glue = readFileSync(file, 'utf8');
for (const set of sets.split(',')) {
  if (!FIXES[set]) {
    console.error(`glue-fixes: unknown fix set '${set}' (known: ${Object.keys(FIXES).join(', ')})`);
    process.exit(1);
  }
  for (const [what, pattern, replacement] of FIXES[set]) {
    const count = glue.split(pattern).length - 1;
    if (count !== 1) {
      console.error(
        `glue-fixes: expected ${what} (${pattern}) once in ${file}, found it ${count} times`,
      );
      process.exit(1);
    }
    glue = glue.replace(pattern, () => replacement);
  }
}
writeFileSync(file, glue);
