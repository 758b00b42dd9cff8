// The browsers' wasm threads build's helper script, made from the one Emscripten 3.1.6 writes
// (attention-threads.worker.js) by scripts/build:
//   node scripts/lib/threads-worker.mjs <attention-threads.worker.js> <attention-threads.worker.mjs>
//
// Emscripten's script is a classic worker that, told to load, imports the glue by a URL it is
// sent or by a computed one: no bundler can follow that (Vite inlined the script as a data:
// URL, from which ./attention-threads.mjs does not resolve, and the team never started), and a
// glue that fails to load there is an unhandled rejection nobody hears of. Made here into a
// module worker that imports the glue statically, so that a bundler bundles the two together
// (the loader starts it by a literal URL: src/js/module/threads.mjs) and a glue that cannot load makes
// the script itself fail to load, which the loader sees; a factory that rejects is rethrown
// as an error event of the worker, which the loader sees too.
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
let script = readFileSync(input, 'utf8');

const FIXES = [
  // A module is strict already; the import must come first.
  [
    'the strict directive',
    /^"use strict";/,
    'import createAttentionModule from"./attention-threads.mjs";',
  ],
  [
    'the glue’s import on "load"',
    /\(e\.data\.urlOrBlob\?import\(e\.data\.urlOrBlob\):import\("\.\/attention-threads\.mjs"\)\)\.then\(function\(exports\)\{return exports\.default\(Module\)\}\)\.then\(function\(instance\)\{Module=instance\}\)/,
    'createAttentionModule(Module).then(function(instance){Module=instance},function(error){setTimeout(function(){throw error})})',
  ],
];
for (const [what, pattern, replacement] of FIXES) {
  if (!pattern.test(script)) {
    console.error(`threads-worker: ${input} has no ${what} (${pattern}): a new Emscripten?`);
    process.exit(1);
  }
  script = script.replace(pattern, () => replacement);
}
writeFileSync(output, `${script.trim()}\n`);
