// Puts back the comments that tell an app's bundler to leave a computed import() alone, which
// esbuild's --minify drops with the whitespace: the threads build's glue is imported from a
// URL known only at run time (src/js/module/threads.mjs browserGlue), and webpack turns an
// import() of a variable it was not told to ignore into one that always fails ("Cannot find
// module"). Run by scripts/build on each minified file that holds that import():
//   node scripts/lib/keep-import-comments.mjs <file.mjs>...
// Each file must hold exactly one import() of a bare name, so that a change in the source or
// in esbuild cannot make this silently do nothing (or too much). A source map beside the file
// (file.mjs.map) is moved along: the code after the comments on their line shifts right.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const COMPUTED_IMPORT = /\bimport\(([A-Za-z_$][\w$]*)\)/g;
const COMMENTS = '/* webpackIgnore: true */ /* @vite-ignore */ ';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A source map segment's base64 VLQ fields as numbers. */
function decodeSegment(segment) {
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

/** Numbers as a source map segment (base64 VLQ). */
function encodeSegment(fields) {
  let out = '';
  for (const field of fields) {
    let value = field < 0 ? (-field << 1) | 1 : field << 1;
    do {
      let digit = value & 31;
      value >>>= 5;
      if (value > 0) digit |= 32;
      out += BASE64[digit];
    } while (value > 0);
  }
  return out;
}

/**
 * The map's mappings with every segment of generated `line` (0-based) at or after `column`
 * moved `by` columns right. Columns are relative within a line: only the first such segment
 * changes.
 */
function shiftMappings(mappings, line, column, by) {
  const lines = mappings.split(';');
  const segments = lines[line].split(',');
  let at = 0;
  for (let i = 0; i < segments.length; i++) {
    const fields = decodeSegment(segments[i]);
    at += fields[0];
    if (at >= column) {
      fields[0] += by;
      segments[i] = encodeSegment(fields);
      break;
    }
  }
  lines[line] = segments.join(',');
  return lines.join(';');
}

for (const file of process.argv.slice(2)) {
  const code = readFileSync(file, 'utf8');
  const found = [...code.matchAll(COMPUTED_IMPORT)];
  if (found.length !== 1) {
    console.error(
      `keep-import-comments: expected one import() of a bare name in ${file}, found ${found.length}`,
    );
    process.exit(1);
  }
  const at = found[0].index + 'import('.length;
  writeFileSync(file, code.slice(0, at) + COMMENTS + code.slice(at));
  const mapFile = `${file}.map`;
  if (existsSync(mapFile)) {
    const map = JSON.parse(readFileSync(mapFile, 'utf8'));
    const before = code.slice(0, at).split('\n');
    map.mappings = shiftMappings(
      map.mappings,
      before.length - 1,
      before.at(-1).length,
      COMMENTS.length,
    );
    writeFileSync(mapFile, JSON.stringify(map));
  }
}
