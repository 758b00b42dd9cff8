// Bad input for onnxRotaryEmbedding() and rotaryCaches(): every shape rule of the ONNX spec,
// every attribute and option, wrong types, and getters / Proxies aimed at each read. Each bad
// call must throw a TypeError or RangeError naming the ONNX input or attribute (or the option)
// at fault, leak nothing, and leave the instance computing correctly. NaN and Infinity are data,
// not errors: they propagate as IEEE arithmetic does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as ort from 'onnxruntime-web';

import createAttention from '../../../dist/attention.mjs';
import { assertEachReadOnce, countingProxy } from '../counting-proxy.mjs';
import { assertRefuses as checkRefuses } from './checks.mjs';
import { rotaryEmbedding64 } from '../rotary-reference64.mjs';
import { seededRandom } from '../seeded-random.mjs';

// A valid call: B 2, H 3, S 4, D 8, rotary_embedding_dim 6 (caches of 3 columns), interleaved,
// caches of 10 rows, position ids from 0 to 9.
const random = seededRandom(0x0b0e0001);
const floats = (dims) =>
  Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, () => random() * 2 - 1);
const tensor = (dims, data = floats(dims), type = 'float32') => ({ type, data, dims });
const DIMS = { input: [2, 3, 4, 8], cos_cache: [10, 3], sin_cache: [10, 3] };
const DATA = Object.fromEntries(Object.entries(DIMS).map(([name, dims]) => [name, floats(dims)]));
const IDS = [0n, 9n, 3n, 3n, 1n, 5n, 8n, 2n];
function validInputs() {
  const inputs = {};
  for (const [name, dims] of Object.entries(DIMS)) inputs[name] = tensor(dims, DATA[name].slice());
  inputs.position_ids = tensor([2, 4], BigInt64Array.from(IDS), 'int64');
  return inputs;
}
const validAttributes = () => ({ interleaved: 1, rotary_embedding_dim: 6 });

let attn;
let baseline;
let expected;

function assertWorks() {
  const { output } = attn.onnxRotaryEmbedding(validInputs(), validAttributes());
  assert.deepEqual(output.dims, DIMS.input);
  for (let i = 0; i < expected.length; i++)
    assert.ok(Math.abs(output.data[i] - expected[i]) < 1e-6);
}

before(async () => {
  attn = await createAttention();
  const inputs = validInputs();
  expected = rotaryEmbedding64(
    inputs.input,
    inputs.cos_cache,
    inputs.sin_cache,
    inputs.position_ids,
    validAttributes(),
  );
  assertWorks();
  baseline = attn.memoryStats().allocatedBytes;
});

after(() => {
  assertWorks();
  assert.equal(attn.memoryStats().allocatedBytes, baseline);
});

const assertRefuses = (call, ErrorType, name) =>
  checkRefuses(attn, baseline, call, ErrorType, name);

const ids = (values, dims = [2, 4]) => tensor(dims, BigInt64Array.from(values), 'int64');

// [what, change (inputs, attributes), error type, the name it names]
const SHAPE_RULES = [
  ['input missing', (i) => delete i.input, TypeError, 'input'],
  ['cos_cache missing', (i) => delete i.cos_cache, TypeError, 'cos_cache'],
  ['sin_cache missing', (i) => delete i.sin_cache, TypeError, 'sin_cache'],
  ['an unknown input', (i) => (i.X = i.input), TypeError, 'X'],
  ['input a bare Float32Array', (i) => (i.input = i.input.data), TypeError, 'input'],
  ['input.dims not an array', (i) => (i.input.dims = '2,3,4,8'), TypeError, 'input'],
  ['input.dims with a fraction', (i) => (i.input.dims = [2, 3, 4, 7.5]), RangeError, 'input'],
  ['input.dims negative', (i) => (i.input.dims = [2, -3, 4, 8]), RangeError, 'input'],
  [
    'input.data a plain array',
    (i) => (i.input.data = Array.from(i.input.data)),
    TypeError,
    'input',
  ],
  [
    'input.data a Float64Array',
    (i) => (i.input = { data: new Float64Array(192), dims: DIMS.input }),
    TypeError,
    'input',
  ],
  ['input.type unknown', (i) => (i.input.type = 'bfloat16'), TypeError, 'input'],
  ['input.type float16 over a Float32Array', (i) => (i.input.type = 'float16'), TypeError, 'input'],
  ['input.data too short', (i) => (i.input.data = i.input.data.subarray(1)), RangeError, 'input'],
  ['input 2-D', (i) => (i.input = tensor([24, 8])), RangeError, 'input'],
  ['input 5-D', (i) => (i.input = tensor([2, 3, 4, 8, 1])), RangeError, 'input'],
  ['input of an odd head size', (i) => (i.input = tensor([2, 3, 4, 7])), RangeError, 'input'],
  ['input of head size 0', (i) => (i.input = tensor([2, 3, 4, 0])), RangeError, 'input'],
  ['3-D input without num_heads', (i) => (i.input = tensor([2, 4, 24])), TypeError, 'num_heads'],
  [
    '3-D input whose width num_heads does not divide',
    (i, a) => {
      i.input = tensor([2, 4, 24]);
      a.num_heads = 5;
    },
    RangeError,
    'num_heads',
  ],
  [
    '3-D input whose head size num_heads makes odd',
    (i, a) => {
      i.input = tensor([2, 4, 24]);
      a.num_heads = 8;
    },
    RangeError,
    'input',
  ],
  ['num_heads that contradicts a 4-D input', (i, a) => (a.num_heads = 2), RangeError, 'num_heads'],
  [
    'cos_cache of float16 for float32 input',
    (i) => (i.cos_cache = tensor([10, 3], new Uint16Array(30), 'float16')),
    TypeError,
    'cos_cache',
  ],
  [
    'sin_cache of float16 for float32 input',
    (i) => (i.sin_cache = tensor([10, 3], new Uint16Array(30), 'float16')),
    TypeError,
    'sin_cache',
  ],
  [
    'cos_cache not rotary_dim / 2 wide',
    (i) => (i.cos_cache = tensor([10, 4])),
    RangeError,
    'cos_cache',
  ],
  [
    'cos_cache 3-D with position_ids',
    (i) => (i.cos_cache = tensor([2, 4, 3])),
    RangeError,
    'cos_cache',
  ],
  ['cos_cache 1-D', (i) => (i.cos_cache = tensor([30])), RangeError, 'cos_cache'],
  [
    'cos_cache 2-D without position_ids',
    (i) => {
      delete i.position_ids;
      i.sin_cache = tensor([10, 3]);
    },
    RangeError,
    'cos_cache',
  ],
  [
    'cos_cache of another batch without position_ids',
    (i) => {
      delete i.position_ids;
      i.cos_cache = tensor([1, 4, 3]);
      i.sin_cache = tensor([1, 4, 3]);
    },
    RangeError,
    'cos_cache',
  ],
  ['sin_cache of other dims', (i) => (i.sin_cache = tensor([9, 3])), RangeError, 'sin_cache'],
  [
    'position_ids as int32',
    (i) => (i.position_ids = { data: new Int32Array(8), dims: [2, 4] }),
    TypeError,
    'position_ids',
  ],
  [
    'position_ids as floats typed int64',
    (i) => (i.position_ids = tensor([2, 4], new Float32Array(8), 'int64')),
    TypeError,
    'position_ids',
  ],
  [
    'position_ids of dims (seq, batch)',
    (i) => (i.position_ids = ids(IDS, [4, 2])),
    RangeError,
    'position_ids',
  ],
  ['position_ids 1-D', (i) => (i.position_ids = ids(IDS, [8])), RangeError, 'position_ids'],
  [
    'a position id past the last row',
    (i) => (i.position_ids = ids([0n, 1n, 2n, 10n, 0n, 0n, 0n, 0n])),
    RangeError,
    'position_ids',
  ],
  [
    'a negative position id',
    (i) => (i.position_ids = ids([0n, 1n, 2n, 3n, 0n, -1n, 0n, 0n])),
    RangeError,
    'position_ids',
  ],
  [
    'a position id of 2^62',
    (i) => (i.position_ids = ids([2n ** 62n, 1n, 2n, 3n, 0n, 0n, 0n, 0n])),
    RangeError,
    'position_ids',
  ],
];

// [what, attributes, error type, the name it names]
const ATTRIBUTE_RULES = [
  ['interleaved 2', { interleaved: 2 }, RangeError, 'interleaved'],
  ['interleaved a string', { interleaved: '1' }, TypeError, 'interleaved'],
  ['rotary_embedding_dim odd', { rotary_embedding_dim: 5 }, RangeError, 'rotary_embedding_dim'],
  [
    'rotary_embedding_dim past the head',
    { rotary_embedding_dim: 10 },
    RangeError,
    'rotary_embedding_dim',
  ],
  [
    'rotary_embedding_dim negative',
    { rotary_embedding_dim: -2 },
    RangeError,
    'rotary_embedding_dim',
  ],
  [
    'rotary_embedding_dim a fraction',
    { rotary_embedding_dim: 2.5 },
    RangeError,
    'rotary_embedding_dim',
  ],
  [
    'rotary_embedding_dim a bigint',
    { rotary_embedding_dim: 6n },
    TypeError,
    'rotary_embedding_dim',
  ],
  ['num_heads 0', { num_heads: 0 }, RangeError, 'num_heads'],
  ['num_heads a string', { num_heads: '3' }, TypeError, 'num_heads'],
  ['an unknown attribute', { scale: 1 }, TypeError, 'scale'],
];

describe('every shape rule, naming the ONNX input', () => {
  for (const [what, change, ErrorType, name] of SHAPE_RULES) {
    test(`${what}: ${ErrorType.name} naming ${name}`, () => {
      const inputs = validInputs();
      const attributes = validAttributes();
      change(inputs, attributes);
      assertRefuses(() => attn.onnxRotaryEmbedding(inputs, attributes), ErrorType, name);
    });
  }
});

describe('every attribute, naming it', () => {
  for (const [what, extra, ErrorType, name] of ATTRIBUTE_RULES) {
    test(`${what}: ${ErrorType.name} naming ${name}`, () => {
      const attributes = { ...validAttributes(), ...extra };
      assertRefuses(() => attn.onnxRotaryEmbedding(validInputs(), attributes), ErrorType, name);
    });
  }
  test('inputs and attributes that are not objects', () => {
    assertRefuses(() => attn.onnxRotaryEmbedding(null, {}), TypeError, 'inputs');
    assertRefuses(() => attn.onnxRotaryEmbedding([validInputs()]), TypeError, 'inputs');
    assertRefuses(() => attn.onnxRotaryEmbedding(validInputs(), 1), TypeError, 'attributes');
  });
});

describe('rotaryCaches: every option, naming it', () => {
  const RULES = [
    ['length missing', { rotaryDim: 4 }, TypeError, 'length'],
    ['rotaryDim missing', { length: 4 }, TypeError, 'rotaryDim'],
    ['length 0', { length: 0, rotaryDim: 4 }, RangeError, 'length'],
    ['length a fraction', { length: 1.5, rotaryDim: 4 }, RangeError, 'length'],
    ['length a string', { length: '4', rotaryDim: 4 }, TypeError, 'length'],
    ['rotaryDim odd', { length: 4, rotaryDim: 3 }, RangeError, 'rotaryDim'],
    ['rotaryDim 0', { length: 4, rotaryDim: 0 }, RangeError, 'rotaryDim'],
    ['base 0', { length: 4, rotaryDim: 4, base: 0 }, RangeError, 'base'],
    ['base negative', { length: 4, rotaryDim: 4, base: -10 }, RangeError, 'base'],
    ['base NaN', { length: 4, rotaryDim: 4, base: NaN }, RangeError, 'base'],
    ['base Infinity', { length: 4, rotaryDim: 4, base: Infinity }, RangeError, 'base'],
    ['base a string', { length: 4, rotaryDim: 4, base: '10000' }, TypeError, 'base'],
    ['type float64', { length: 4, rotaryDim: 4, type: 'float64' }, RangeError, 'type'],
    ['type a number', { length: 4, rotaryDim: 4, type: 16 }, TypeError, 'type'],
    ['an unknown option', { length: 4, rotaryDim: 4, dims: [4, 2] }, TypeError, 'dims'],
    ['16 GiB of caches', { length: 2 ** 30, rotaryDim: 4 }, RangeError, 'length'],
  ];
  for (const [what, options, ErrorType, name] of RULES) {
    test(`${what}: ${ErrorType.name} naming ${name}`, () => {
      assertRefuses(() => attn.rotaryCaches(options), ErrorType, name);
    });
  }
  test('not an object, or an inherited option', () => {
    assertRefuses(() => attn.rotaryCaches(), TypeError, 'rotaryCaches');
    assertRefuses(() => attn.rotaryCaches([4, 4]), TypeError, 'rotaryCaches');
    const inherited = Object.assign(Object.create({ base: 10 }), { length: 4, rotaryDim: 4 });
    assertRefuses(() => attn.rotaryCaches(inherited), TypeError, 'base');
  });
});

describe('NaN and Infinity propagate as IEEE arithmetic does', () => {
  test('in the input and in the caches: where the reference has them, and only there', () => {
    const inputs = validInputs();
    inputs.input.data[0] = NaN; // pair 0 of row (0, 0, 0)
    inputs.input.data[8 * 5 + 3] = Infinity; // pair 1 of a row
    inputs.input.data[8 * 7 + 7] = -Infinity; // a copied dim
    inputs.cos_cache.data[3 * 3 + 2] = NaN; // row 3 (position_ids[0][2] and [0][3])
    inputs.sin_cache.data[9 * 3] = Infinity; // row 9 (position_ids[0][1])
    const { output } = attn.onnxRotaryEmbedding(inputs, validAttributes());
    const want = rotaryEmbedding64(
      inputs.input,
      inputs.cos_cache,
      inputs.sin_cache,
      inputs.position_ids,
      validAttributes(),
    );
    let special = 0;
    for (let i = 0; i < want.length; i++) {
      if (Number.isFinite(want[i])) {
        assert.ok(Math.abs(output.data[i] - want[i]) < 1e-6, `element ${i}`);
      } else {
        special++;
        assert.ok(
          Object.is(output.data[i], want[i]),
          `element ${i}: ${output.data[i]} vs ${want[i]}`,
        );
      }
    }
    assert.ok(special >= 10, `${special} non-finite outputs`);
    assert.equal(attn.memoryStats().allocatedBytes, baseline);
  });
});

describe('read once', () => {
  test('every input, tensor field, dim and attribute is read once', () => {
    const counts = new Map();
    const { output } = attn.onnxRotaryEmbedding(
      countingProxy(validInputs(), counts, 'inputs'),
      countingProxy(validAttributes(), counts, 'attributes'),
    );
    for (let i = 0; i < expected.length; i++)
      assert.ok(Math.abs(output.data[i] - expected[i]) < 1e-6);
    assertEachReadOnce(counts, 'onnxRotaryEmbedding');
    for (const key of [
      'inputs.input.data',
      'inputs.position_ids.data',
      'inputs.cos_cache.dims.1',
      'attributes.rotary_embedding_dim',
    ]) {
      assert.equal(counts.get(key), 1, key);
    }
    assert.equal(attn.memoryStats().allocatedBytes, baseline);
  });

  test('rotaryCaches reads each option once', () => {
    const counts = new Map();
    attn.rotaryCaches(countingProxy({ length: 3, rotaryDim: 4, base: 100 }, counts, 'options'));
    assertEachReadOnce(counts, 'rotaryCaches');
    assert.equal(counts.get('options.base'), 1);
  });

  test('an attribute getter that shrinks a tensor behind a resizable buffer', () => {
    for (const name of ['input', 'cos_cache', 'position_ids']) {
      const inputs = validInputs();
      const source = inputs[name].data;
      const buffer = new ArrayBuffer(source.byteLength, { maxByteLength: source.byteLength });
      const data = new source.constructor(buffer);
      data.set(source);
      inputs[name].data = data;
      const attributes = {
        ...validAttributes(),
        get interleaved() {
          buffer.resize(8);
          return 1;
        },
      };
      assertRefuses(() => attn.onnxRotaryEmbedding(inputs, attributes), RangeError, name);
    }
  });

  test('a dims getter that answers differently each time: the first answer is the one used', () => {
    const inputs = validInputs();
    let reads = 0;
    inputs.cos_cache = {
      type: 'float32',
      data: inputs.cos_cache.data,
      get dims() {
        return reads++ === 0 ? DIMS.cos_cache : [30, 1];
      },
    };
    const { output } = attn.onnxRotaryEmbedding(inputs, validAttributes());
    for (let i = 0; i < expected.length; i++)
      assert.ok(Math.abs(output.data[i] - expected[i]) < 1e-6);
    assert.equal(reads, 1);
  });

  test('inherited inputs and attributes are refused by name', () => {
    const inputs = Object.create(validInputs());
    Object.assign(inputs, { input: inputs.input, cos_cache: inputs.cos_cache });
    assertRefuses(
      () => attn.onnxRotaryEmbedding(inputs, validAttributes()),
      TypeError,
      'sin_cache',
    );
    const attributes = Object.create({ interleaved: 1 });
    assertRefuses(
      () => attn.onnxRotaryEmbedding(validInputs(), attributes),
      TypeError,
      'interleaved',
    );
  });

  test('a spoofed toStringTag and a detached buffer: TypeError naming the input', () => {
    const inputs = validInputs();
    const spoof = new Float64Array(192);
    Object.defineProperty(spoof, Symbol.toStringTag, { value: 'Float32Array' });
    inputs.input = { type: 'float32', data: spoof, dims: DIMS.input };
    assertRefuses(() => attn.onnxRotaryEmbedding(inputs, validAttributes()), TypeError, 'input');
    const detached = validInputs();
    structuredClone(detached.sin_cache.data.buffer, { transfer: [detached.sin_cache.data.buffer] });
    assertRefuses(
      () => attn.onnxRotaryEmbedding(detached, validAttributes()),
      TypeError,
      'sin_cache',
    );
  });

  test("onnxruntime-web Tensors pass as they are (data is a getter on Tensor's prototype)", () => {
    const inputs = {};
    for (const [name, t] of Object.entries(validInputs()))
      inputs[name] = new ort.Tensor(t.type, t.data, t.dims);
    assert.ok(!Object.hasOwn(inputs.input, 'data'));
    const { output } = attn.onnxRotaryEmbedding(inputs, validAttributes());
    for (let i = 0; i < expected.length; i++)
      assert.ok(Math.abs(output.data[i] - expected[i]) < 1e-6);
  });

  test("the output is a fresh array the caller owns; the caller's input is untouched", () => {
    const inputs = validInputs();
    const a = attn.onnxRotaryEmbedding(inputs, validAttributes()).output;
    const b = attn.onnxRotaryEmbedding(inputs, validAttributes()).output;
    assert.notEqual(a.data.buffer, b.data.buffer);
    assert.notEqual(a.dims, inputs.input.dims);
    a.data.fill(0);
    assert.deepEqual(b.data, attn.onnxRotaryEmbedding(inputs, validAttributes()).output.data);
    assert.deepEqual(inputs.input.data, DATA.input);
  });
});

test('2,000 calls, valid and refused, keep allocatedBytes and wasmMemoryBytes flat', () => {
  const before = attn.memoryStats();
  for (let n = 0; n < 2000; n++) {
    const inputs = validInputs();
    const attributes = validAttributes();
    const [, change] = SHAPE_RULES[n % SHAPE_RULES.length];
    if (n % 2) {
      change(inputs, attributes);
      assert.throws(() => attn.onnxRotaryEmbedding(inputs, attributes));
    } else {
      attn.onnxRotaryEmbedding(inputs, attributes);
      attn.rotaryCaches({ length: 10, rotaryDim: 6 });
    }
  }
  assert.deepEqual(attn.memoryStats(), before);
});
