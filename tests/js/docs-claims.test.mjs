// What README.md and docs/module.md say about the module's API, checked against the module
// itself, so that a new option or a reworded error cannot leave the docs behind: the option
// table of attention() against the options attention() takes (its own list, in the error
// for an unknown one), the errors docs/module.md quotes against the calls that throw them,
// and the tiny transformer's positions against TRANSFORMER_POSITIONS.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import createAttention, { TRANSFORMER_POSITIONS } from '../../dist/attention.mjs';

const read = (file) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const readme = read('README.md');
const moduleDoc = read('docs/module.md');
const attn = await createAttention();

/** The error `call` throws, as "Name: message". */
function thrown(call) {
  try {
    call();
  } catch (error) {
    return `${error.name}: ${error.message}`;
  }
  assert.fail('the call did not throw');
}

const floats = (n) => new Float32Array(n);
const unknownOption = () =>
  attn.attention(floats(4), floats(4), floats(4), { qNumHeads: 1, headSize: 4, causal: true });

test("README's option table of attention() names every option it takes, and no other", () => {
  const taken = /expected one of ([\w, ]+)\)/.exec(thrown(unknownOption))[1].split(', ');
  const table = readme.slice(readme.indexOf('\n| option '));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(3);
  const documented = rows.flatMap((row) =>
    [...row.split('|')[1].matchAll(/`(\w+)`/g)].map(([, name]) => name),
  );
  assert.deepEqual([...documented].sort(), [...taken].sort());
});

test('the errors docs/module.md quotes are the ones the module throws', () => {
  const start = moduleDoc.indexOf('```text\n', moduleDoc.indexOf('## Memory and errors'));
  const quoted = moduleDoc
    .slice(start + 8, moduleDoc.indexOf('```', start + 8))
    .trim()
    .split('\n');
  assert.deepEqual(quoted, [
    thrown(unknownOption),
    thrown(() =>
      attn.attention(floats(12), floats(8), floats(8), {
        qNumHeads: 3,
        kvNumHeads: 2,
        headSize: 4,
      }),
    ),
    // An output of 32,768 rows of 32,768 values: 4 GiB, from inputs of 128 KiB.
    thrown(() =>
      attn.attention(floats(32768), floats(1), floats(32768), {
        qNumHeads: 1,
        headSize: 1,
        vHeadSize: 32768,
      }),
    ),
  ]);
});

test("docs/module.md lists the tiny transformer's positions, all of them", () => {
  const sentence = /token embedding, positions ([^;]*?), `layers`/s.exec(moduleDoc);
  assert.ok(sentence, 'docs/module.md no longer lists the positions where it did');
  const listed = [...sentence[1].matchAll(/`'(\w+)'`/g)].map(([, name]) => name);
  assert.deepEqual(listed, [...TRANSFORMER_POSITIONS]);
});
