// Link-time fix of Embind's generated glue (Emscripten 3.1.6), run by emcc --js-transform on
// every module target (CMakeLists.txt) before the glue is minified.
//
// Embind converts a value_object (AttentionCall, TraceCall, ... every struct registered with
// emscripten::value_object) by walking its table of fields with `for (name in fields)`, where
// `fields` is a plain object. for-in also walks enumerable properties inherited from
// Object.prototype: after `Object.prototype.foo = 1` it finds a field "foo", allocates the
// struct in wasm memory, then fails on "fields.foo.write is not a function" without freeing
// it. Every call handing Embind a value object then throws, and leaks the struct.
// Giving the table no prototype makes the walk see the registered fields only, for every
// value object, present and future. The JS layer cannot fix this from outside: the table is
// private to the glue.
//
// Usage: node scripts/lib/embind-glue.mjs <glue.js> (rewrites the file in place). Fails when the
// glue does not hold the pattern exactly once, so a new Emscripten cannot silently drop it.
import { readFileSync, writeFileSync } from 'node:fs';

const PATTERNS = [
  // _embind_finalize_value_object: the field table walked by toWireType and fromWireType.
  ['var fields = {};', 'var fields = Object.create(null);'],
];

const file = process.argv[2];
let glue = readFileSync(file, 'utf8');
for (const [from, to] of PATTERNS) {
  const count = glue.split(from).length - 1;
  if (count !== 1) {
    console.error(`embind-glue: expected "${from}" once in ${file}, found it ${count} times`);
    process.exit(1);
  }
  glue = glue.replace(from, to);
}
writeFileSync(file, glue);
