// Bad input for onnxAttention(): every shape rule of the ONNX spec, every attribute, the
// outputs list, wrong types, and getters / Proxies aimed at each read. Each bad call must throw
// a TypeError or RangeError naming the ONNX input or attribute at fault, leak nothing, and
// leave the instance computing correctly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as ort from 'onnxruntime-web';

import createAttention from '../../../dist/attention.mjs';
import { countingProxy } from '../counting-proxy.mjs';
import { assertRefuses as checkRefuses, namesIt } from './checks.mjs';
import { caseInputs, compare, randomCase } from '../onnx-data.mjs';
import { onnxAttention64 } from '../reference64.mjs';
import { seededRandom } from '../seeded-random.mjs';

// A valid call: B 2, Hq 4, Hkv 2, S 3, L 5, P 4 (so T 9), D 8, Dv 6, a float mask (3, 9).
const random = seededRandom(0x0bad0001);
const floats = (dims) =>
  Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, () => random() * 2 - 1);
const tensor = (dims, data = floats(dims), type = 'float32') => ({ type, data, dims });
const DIMS = {
  Q: [2, 4, 3, 8],
  K: [2, 2, 5, 8],
  V: [2, 2, 5, 6],
  attn_mask: [3, 9],
  past_key: [2, 2, 4, 8],
  past_value: [2, 2, 4, 6],
};
const DATA = Object.fromEntries(Object.entries(DIMS).map(([name, dims]) => [name, floats(dims)]));
function validInputs() {
  const inputs = {};
  for (const [name, dims] of Object.entries(DIMS)) inputs[name] = tensor(dims, DATA[name].slice());
  return inputs;
}
const validAttributes = () => ({ is_causal: 1, softcap: 3 });
const OUTPUTS = ['Y', 'present_key', 'present_value'];

let attn;
let baseline;
let expected;

function assertWorks() {
  const inputs = validInputs();
  const out = attn.onnxAttention(inputs, validAttributes(), OUTPUTS);
  compare(out.Y, expected.Y.data, 'Y');
  compare(out.present_key, expected.present_key.data, 'present_key');
}

before(async () => {
  attn = await createAttention();
  const inputs = validInputs();
  expected = onnxAttention64(inputs, validAttributes());
  assertWorks();
  baseline = attn.memoryStats().allocatedBytes;
});

after(() => {
  assertWorks();
  assert.equal(attn.memoryStats().allocatedBytes, baseline);
});

const assertRefuses = (call, ErrorType, name) =>
  checkRefuses(attn, baseline, call, ErrorType, name);

// [what, change (inputs, attributes) => outputs or undefined, error type, the name it names]
const SHAPE_RULES = [
  ['Q missing', (i) => delete i.Q, TypeError, 'Q'],
  ['K missing', (i) => delete i.K, TypeError, 'K'],
  ['V missing', (i) => delete i.V, TypeError, 'V'],
  ['an unknown input', (i) => (i.q = i.Q), TypeError, 'q'],
  ['Q a bare Float32Array', (i) => (i.Q = i.Q.data), TypeError, 'Q'],
  ['Q.dims not an array', (i) => (i.Q.dims = '2,4,3,8'), TypeError, 'Q'],
  ['Q.dims with a fraction', (i) => (i.Q.dims = [2, 4, 3, 7.5]), RangeError, 'Q'],
  ['Q.dims negative', (i) => (i.Q.dims = [2, 4, -3, 8]), RangeError, 'Q'],
  ['Q.data a plain array', (i) => (i.Q.data = Array.from(i.Q.data)), TypeError, 'Q'],
  [
    'Q.data a Float64Array',
    (i) => (i.Q = { data: new Float64Array(96), dims: DIMS.Q }),
    TypeError,
    'Q',
  ],
  ['Q.type unknown', (i) => (i.Q.type = 'float64'), TypeError, 'Q'],
  ['Q.type float16 over a Float32Array', (i) => (i.Q.type = 'float16'), TypeError, 'Q'],
  ['Q.data too short', (i) => (i.Q.data = i.Q.data.subarray(1)), RangeError, 'Q'],
  ['Q 2-D', (i) => (i.Q = tensor([12, 8])), RangeError, 'Q'],
  ['Q 5-D', (i) => (i.Q = tensor([2, 4, 3, 8, 1])), RangeError, 'Q'],
  ['Q with 0 queries', (i) => (i.Q = tensor([2, 4, 0, 8])), RangeError, 'Q'],
  [
    'K of another type than Q',
    (i) => (i.K = tensor(DIMS.K, new Uint16Array(160), 'float16')),
    TypeError,
    'K',
  ],
  ['K of another batch', (i) => (i.K = tensor([1, 2, 5, 8])), RangeError, 'K'],
  ['K of another head size', (i) => (i.K = tensor([2, 2, 5, 7])), RangeError, 'K'],
  ['V of another length', (i) => (i.V = tensor([2, 2, 4, 6])), RangeError, 'V'],
  ['V 3-D while K is 4-D', (i) => (i.V = tensor([2, 5, 12])), RangeError, 'V'],
  [
    'K 3-D while Q is 4-D',
    (i, a) => {
      i.K = tensor([2, 5, 16]);
      i.V = tensor([2, 5, 12]);
      a.kv_num_heads = 2;
    },
    RangeError,
    'K',
  ],
  [
    'kv heads that do not divide q heads',
    (i) => {
      i.K = tensor([2, 3, 5, 8]);
      i.V = tensor([2, 3, 5, 6]);
      i.past_key = tensor([2, 3, 4, 8]);
      i.past_value = tensor([2, 3, 4, 6]);
    },
    RangeError,
    'K',
  ],
  [
    '3-D Q without q_num_heads',
    (i, a) => {
      i.Q = tensor([2, 3, 32]);
      a.kv_num_heads = 2;
    },
    TypeError,
    'q_num_heads',
  ],
  [
    '3-D K without kv_num_heads',
    (i, a) => {
      i.Q = tensor([2, 3, 32]);
      i.K = tensor([2, 5, 16]);
      i.V = tensor([2, 5, 12]);
      a.q_num_heads = 4;
    },
    TypeError,
    'kv_num_heads',
  ],
  [
    '3-D Q whose width q_num_heads does not divide',
    (i, a) => {
      i.Q = tensor([2, 3, 32]);
      a.q_num_heads = 5;
    },
    RangeError,
    'q_num_heads',
  ],
  [
    'q_num_heads that contradicts a 4-D Q',
    (i, a) => (a.q_num_heads = 2),
    RangeError,
    'q_num_heads',
  ],
  ['past_key without past_value', (i) => delete i.past_value, TypeError, 'past_value'],
  ['past_value without past_key', (i) => delete i.past_key, TypeError, 'past_key'],
  ['past_key 3-D', (i) => (i.past_key = tensor([2, 4, 16])), RangeError, 'past_key'],
  ['past_key of other heads', (i) => (i.past_key = tensor([2, 1, 4, 8])), RangeError, 'past_key'],
  [
    'past_value of another length',
    (i) => (i.past_value = tensor([2, 2, 3, 6])),
    RangeError,
    'past_value',
  ],
  [
    'past_value of another head size',
    (i) => (i.past_value = tensor([2, 2, 4, 8])),
    RangeError,
    'past_value',
  ],
  [
    'past_key of another type',
    (i) => (i.past_key = tensor(DIMS.past_key, new Uint16Array(128), 'float16')),
    TypeError,
    'past_key',
  ],
  [
    'nonpad_kv_seqlen with a past',
    (i) => (i.nonpad_kv_seqlen = tensor([2], new BigInt64Array([5n, 5n]), 'int64')),
    RangeError,
    'nonpad_kv_seqlen',
  ],
  [
    'nonpad_kv_seqlen as int32',
    (i) => {
      delete i.past_key;
      delete i.past_value;
      i.nonpad_kv_seqlen = { data: new Int32Array([5, 5]), dims: [2] };
    },
    TypeError,
    'nonpad_kv_seqlen',
  ],
  [
    'nonpad_kv_seqlen of the wrong length',
    (i) => {
      delete i.past_key;
      delete i.past_value;
      i.nonpad_kv_seqlen = tensor([3], new BigInt64Array([5n, 5n, 5n]), 'int64');
    },
    RangeError,
    'nonpad_kv_seqlen',
  ],
  [
    'nonpad_kv_seqlen beyond the keys',
    (i) => {
      delete i.past_key;
      delete i.past_value;
      i.attn_mask = tensor([3, 5]);
      i.nonpad_kv_seqlen = tensor([2], new BigInt64Array([5n, 6n]), 'int64');
    },
    RangeError,
    'nonpad_kv_seqlen',
  ],
  [
    'nonpad_kv_seqlen negative',
    (i) => {
      delete i.past_key;
      delete i.past_value;
      i.attn_mask = tensor([3, 5]);
      i.nonpad_kv_seqlen = tensor([2], new BigInt64Array([-1n, 2n]), 'int64');
    },
    RangeError,
    'nonpad_kv_seqlen',
  ],
  ['attn_mask 5-D', (i) => (i.attn_mask = tensor([1, 1, 1, 3, 9])), RangeError, 'attn_mask'],
  [
    'attn_mask longer than the keys',
    (i) => (i.attn_mask = tensor([3, 10])),
    RangeError,
    'attn_mask',
  ],
  [
    'attn_mask that does not broadcast',
    (i) => (i.attn_mask = tensor([2, 9])),
    RangeError,
    'attn_mask',
  ],
  ['attn_mask of 3 heads', (i) => (i.attn_mask = tensor([3, 3, 9])), RangeError, 'attn_mask'],
  [
    'attn_mask float16 for float32 Q',
    (i) => (i.attn_mask = tensor([3, 9], new Uint16Array(27), 'float16')),
    TypeError,
    'attn_mask',
  ],
  [
    'attn_mask int64',
    (i) => (i.attn_mask = tensor([3, 9], new BigInt64Array(27), 'int64')),
    TypeError,
    'attn_mask',
  ],
  [
    'attn_mask a DataView',
    (i) => (i.attn_mask = { data: new DataView(new ArrayBuffer(27)), dims: [3, 9] }),
    TypeError,
    'attn_mask',
  ],
];

const ATTRIBUTE_RULES = [
  ['an unknown attribute', { causal: 1 }, TypeError, 'causal'],
  ['is_causal 2', { is_causal: 2 }, RangeError, 'is_causal'],
  ['is_causal a string', { is_causal: '1' }, TypeError, 'is_causal'],
  ['scale NaN', { scale: NaN }, RangeError, 'scale'],
  ['scale past float32', { scale: 1e39 }, RangeError, 'scale'],
  ['scale 0 in float32', { scale: 1e-50 }, RangeError, 'scale'],
  ['scale a string', { scale: '0.1' }, TypeError, 'scale'],
  ['softcap negative', { softcap: -1 }, RangeError, 'softcap'],
  ['softcap 0 in float32', { softcap: 1e-46 }, RangeError, 'softcap'],
  ['q_num_heads 0', { q_num_heads: 0 }, RangeError, 'q_num_heads'],
  ['kv_num_heads a bigint', { kv_num_heads: 2n }, TypeError, 'kv_num_heads'],
  ['qk_matmul_output_mode 4', { qk_matmul_output_mode: 4 }, RangeError, 'qk_matmul_output_mode'],
  [
    'qk_matmul_output_mode 1.5',
    { qk_matmul_output_mode: 1.5 },
    RangeError,
    'qk_matmul_output_mode',
  ],
  ['softmax_precision 2', { softmax_precision: 2 }, RangeError, 'softmax_precision'],
  ['softmax_precision a string', { softmax_precision: 'float' }, TypeError, 'softmax_precision'],
  ['left_window_size -2', { left_window_size: -2 }, RangeError, 'left_window_size'],
  ['right_window_size 2^31', { right_window_size: 2 ** 31 }, RangeError, 'right_window_size'],
  ['right_window_size null', { right_window_size: null }, TypeError, 'right_window_size'],
];

const OUTPUT_RULES = [
  ['outputs a string', 'Y', TypeError, 'outputs'],
  ['an unknown output', ['Y', 'present'], TypeError, 'outputs'],
  ['an output twice', ['Y', 'Y'], RangeError, 'Y'],
  ['present_key without present_value', ['Y', 'present_key'], RangeError, 'present_value'],
  ['more outputs than there are', ['Y', 'Y', 'Y', 'Y', 'Y'], RangeError, 'outputs'],
];

describe('every shape rule, naming the ONNX input', () => {
  for (const [what, change, ErrorType, name] of SHAPE_RULES) {
    test(`${what}: ${ErrorType.name} naming ${name}`, () => {
      const inputs = validInputs();
      const attributes = validAttributes();
      change(inputs, attributes);
      assertRefuses(() => attn.onnxAttention(inputs, attributes, OUTPUTS), ErrorType, name);
    });
  }
});

describe('every attribute, naming it', () => {
  for (const [what, extra, ErrorType, name] of ATTRIBUTE_RULES) {
    test(`${what}: ${ErrorType.name} naming ${name}`, () => {
      const attributes = { ...validAttributes(), ...extra };
      assertRefuses(() => attn.onnxAttention(validInputs(), attributes, OUTPUTS), ErrorType, name);
    });
  }
  test('inputs and attributes that are not objects', () => {
    assertRefuses(() => attn.onnxAttention(null, {}), TypeError, 'inputs');
    assertRefuses(() => attn.onnxAttention([validInputs()]), TypeError, 'inputs');
    assertRefuses(() => attn.onnxAttention(validInputs(), 1), TypeError, 'attributes');
  });
});

describe('the outputs list', () => {
  for (const [what, outputs, ErrorType, name] of OUTPUT_RULES) {
    test(`${what}: ${ErrorType.name} naming ${name}`, () => {
      assertRefuses(
        () => attn.onnxAttention(validInputs(), validAttributes(), outputs),
        ErrorType,
        name,
      );
    });
  }
  test('the default is Y, plus present_* with a past', () => {
    assert.deepEqual(Object.keys(attn.onnxAttention(validInputs(), validAttributes())), OUTPUTS);
    const inputs = validInputs();
    delete inputs.past_key;
    delete inputs.past_value;
    inputs.attn_mask = tensor([3, 5]);
    assert.deepEqual(Object.keys(attn.onnxAttention(inputs)), ['Y']);
  });
});

describe('beyond what memory allows', () => {
  test('a 4 GiB qk_matmul_output from 128 KiB inputs: RangeError saying how much', () => {
    const n = 32768;
    const inputs = { Q: tensor([1, 1, n, 1]), K: tensor([1, 1, n, 1]), V: tensor([1, 1, n, 1]) };
    assert.throws(
      () => attn.onnxAttention(inputs, {}, ['Y', 'qk_matmul_output']),
      (error) =>
        error instanceof RangeError &&
        /GiB/.test(error.message) &&
        /qk_matmul_output/.test(error.message),
    );
    assert.equal(attn.memoryStats().allocatedBytes, baseline);
  });
});

describe('read once', () => {
  test('every input, tensor field, dim, attribute and output name is read once', () => {
    const counts = new Map();
    const out = attn.onnxAttention(
      countingProxy(validInputs(), counts, 'inputs'),
      countingProxy(validAttributes(), counts, 'attributes'),
      countingProxy(OUTPUTS.slice(), counts, 'outputs'),
    );
    compare(out.Y, expected.Y.data, 'Y');
    const twice = [...counts].filter(([, n]) => n > 1);
    assert.deepEqual(twice, []);
    for (const key of [
      'inputs.Q.data',
      'inputs.past_key.dims.2',
      'attributes.softcap',
      'outputs.1',
    ]) {
      assert.equal(counts.get(key), 1, key);
    }
    assert.equal(attn.memoryStats().allocatedBytes, baseline);
  });

  test('an attribute getter that shrinks Q, K or past_key behind a resizable buffer', () => {
    for (const name of ['Q', 'K', 'past_key']) {
      const inputs = validInputs();
      const bytes = inputs[name].data.byteLength;
      const buffer = new ArrayBuffer(bytes, { maxByteLength: bytes });
      const data = new Float32Array(buffer);
      data.set(inputs[name].data);
      inputs[name].data = data;
      const attributes = {
        get is_causal() {
          buffer.resize(8);
          return 1;
        },
      };
      assertRefuses(() => attn.onnxAttention(inputs, attributes, OUTPUTS), RangeError, name);
    }
  });

  test('a dims getter that answers differently each time: the first answer is the one used', () => {
    const inputs = validInputs();
    let reads = 0;
    const dims = DIMS.V;
    inputs.V = {
      type: 'float32',
      data: inputs.V.data,
      get dims() {
        return reads++ === 0 ? dims : [1, 1, 1, 1];
      },
    };
    compare(attn.onnxAttention(inputs, validAttributes(), OUTPUTS).Y, expected.Y.data, 'Y');
    assert.equal(reads, 1);
  });

  test('inherited inputs and attributes are refused by name', () => {
    const inputs = Object.create(validInputs());
    Object.assign(inputs, { Q: inputs.Q, K: inputs.K, V: inputs.V });
    assertRefuses(() => attn.onnxAttention(inputs, validAttributes()), TypeError, 'attn_mask');
    const attributes = Object.create({ is_causal: 1 });
    assertRefuses(() => attn.onnxAttention(validInputs(), attributes), TypeError, 'is_causal');
  });

  test('a spoofed toStringTag and a detached buffer: TypeError naming the input', () => {
    const inputs = validInputs();
    const spoof = new Float64Array(96);
    Object.defineProperty(spoof, Symbol.toStringTag, { value: 'Float32Array' });
    inputs.Q = { type: 'float32', data: spoof, dims: DIMS.Q };
    assertRefuses(() => attn.onnxAttention(inputs, validAttributes()), TypeError, 'Q');
    const detached = validInputs();
    structuredClone(detached.V.data.buffer, { transfer: [detached.V.data.buffer] });
    assertRefuses(() => attn.onnxAttention(detached, validAttributes()), TypeError, 'V');
  });

  test("onnxruntime-web Tensors pass as they are (data is a getter on Tensor's prototype)", () => {
    const inputs = {};
    for (const [name, t] of Object.entries(validInputs()))
      inputs[name] = new ort.Tensor(t.type, t.data, t.dims);
    assert.ok(!Object.hasOwn(inputs.Q, 'data'));
    const out = attn.onnxAttention(inputs, validAttributes(), OUTPUTS);
    compare(out.Y, expected.Y.data, 'Y');
    compare(out.present_value, expected.present_value.data, 'present_value');
    const back = new ort.Tensor(out.Y.type, out.Y.data, out.Y.dims);
    assert.deepEqual(Array.from(back.dims), DIMS.Q.slice(0, 3).concat(6));
  });

  test('outputs are fresh arrays the caller owns', () => {
    const a = attn.onnxAttention(validInputs(), validAttributes(), OUTPUTS);
    const b = attn.onnxAttention(validInputs(), validAttributes(), OUTPUTS);
    for (const name of OUTPUTS) {
      assert.notEqual(a[name].data.buffer, b[name].data.buffer);
      assert.equal(a[name].data.byteOffset, 0);
      assert.equal(a[name].data.buffer.byteLength, a[name].data.byteLength);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Seeded random hostile calls: a random valid configuration (onnx-data.mjs), then one to three
// mutations. Some keep the call valid in an odd form (ort.Tensor, views, shared memory,
// Proxies, getters, explicit nulls, inferred types): the call must then compute what the
// float64 reference says. The others break it: it must throw a TypeError or RangeError naming
// one of the names the mutation touched. Nothing may leak, either way.

const CALLS = 1500;
const JUNK = [null, 0, 'Q', 1n, true, {}, [], Symbol('junk'), () => 1, new Date(0), NaN];
const INPUT_NAMES = ['Q', 'K', 'V', 'attn_mask', 'past_key', 'past_value', 'nonpad_kv_seqlen'];

const pick = (random, list) => list[Math.floor(random() * list.length)];
// The inputs that are still tensors (an earlier mutation may have replaced one with junk).
const present = (call) =>
  INPUT_NAMES.filter((name) => {
    const t = call.inputs[name];
    return t !== null && typeof t === 'object' && ArrayBuffer.isView(t.data);
  });

// The element type a typed array holds here (onnxruntime-web would call a Uint16Array uint16).
const kindOf = (data) =>
  ({ Float32Array: 'float32', Uint16Array: 'float16', Uint8Array: 'bool', BigInt64Array: 'int64' })[
    Object.prototype.toString.call(data).slice(8, -1)
  ];
// A tensor's fields as a plain object (spreading an ort.Tensor would lose its `data` getter).
const fields = (t) => ({ type: t.type, data: t.data, dims: t.dims });

const VALID_FORMS = [
  function ortTensor(call, random) {
    const name = pick(random, present(call));
    const t = call.inputs[name];
    const type = kindOf(t.data);
    if (!type || (t.type !== undefined && t.type !== type)) return; // onnxruntime-web refuses it
    try {
      call.inputs[name] = new ort.Tensor(type, t.data, t.dims);
    } catch {
      // onnxruntime-web refuses junk dims itself: the tensor stays as it was.
    }
  },
  function viewInLargerBuffer(call, random) {
    const name = pick(random, present(call));
    const t = call.inputs[name];
    const Type = t.data.constructor;
    const backing = new Type(t.data.length + 5);
    backing.set(t.data, 3);
    call.inputs[name] = { ...fields(t), data: backing.subarray(3, 3 + t.data.length) };
  },
  function sharedMemory(call, random) {
    const name = pick(random, present(call));
    const t = call.inputs[name];
    const Type = t.data.constructor;
    const shared = new Type(new SharedArrayBuffer(t.data.byteLength));
    shared.set(t.data);
    call.inputs[name] = { ...fields(t), data: shared };
  },
  function typeInferred(call, random) {
    const name = pick(random, present(call));
    const { data, dims } = call.inputs[name];
    call.inputs[name] = { data, dims };
  },
  function getterTensor(call, random) {
    const name = pick(random, present(call));
    const t = call.inputs[name];
    const odd = Object.create(null);
    for (const key of ['type', 'data', 'dims']) {
      Object.defineProperty(odd, key, { get: () => t[key], enumerable: true });
    }
    call.inputs[name] = odd;
  },
  function proxyBags(call) {
    call.inputs = new Proxy({ ...call.inputs }, {});
    call.attributes = new Proxy({ ...call.attributes }, {});
  },
  function explicitNulls(call) {
    for (const name of INPUT_NAMES) if (!call.inputs[name]) call.inputs[name] = null;
  },
  function frozenDims(call, random) {
    const name = pick(random, present(call));
    call.inputs[name] = {
      ...fields(call.inputs[name]),
      dims: Object.freeze([...call.inputs[name].dims]),
    };
  },
];

const BREAKS = [
  function junkTensor(call, random) {
    const name = pick(random, ['Q', 'K', 'V', ...present(call)]);
    call.inputs[name] = pick(
      random,
      JUNK.filter((j) => j !== null),
    );
    return [name];
  },
  function junkDim(call, random) {
    const name = pick(random, present(call));
    const dims = [...call.inputs[name].dims];
    dims[Math.floor(random() * dims.length)] = pick(random, [-1, 1.5, NaN, '2', 2 ** 31, null]);
    call.inputs[name] = { ...fields(call.inputs[name]), dims };
    return [name];
  },
  function dataOneShort(call, random) {
    const name = pick(
      random,
      present(call).filter((n) => call.inputs[n].data.length > 0),
    );
    if (!name) return ['Q'];
    const t = call.inputs[name];
    call.inputs[name] = { ...fields(t), data: t.data.subarray(1) };
    return [name];
  },
  function wrongTypeLabel(call, random) {
    const name = pick(random, present(call));
    const t = call.inputs[name];
    const labels = ['float32', 'float16', 'bool', 'int64', 'float64', 'int8'];
    const actual = kindOf(t.data);
    const type = pick(
      random,
      labels.filter((l) => l !== actual),
    );
    call.inputs[name] = { type, data: t.data, dims: t.dims };
    return [name];
  },
  function wrongArray(call, random) {
    const name = pick(random, present(call));
    const t = call.inputs[name];
    const Type = pick(random, [Float64Array, Int32Array, Int8Array, Uint32Array]);
    call.inputs[name] = { dims: t.dims, data: new Type(t.data.length) };
    return [name];
  },
  function badAttribute(call, random) {
    const [name, values] = pick(random, [
      ['is_causal', [2, -1, '1', null]],
      ['scale', [NaN, Infinity, 1e39, 1e-50, '1']],
      ['softcap', [-1, 1e-46, Infinity, 'x']],
      ['q_num_heads', [0, -2, 1.5, '4']],
      ['kv_num_heads', [0, 2.5, 2n]],
      ['qk_matmul_output_mode', [4, -1, 0.5, '0']],
      ['softmax_precision', [0, 2, 12, 'float']],
      ['left_window_size', [-2, 0.5, 2 ** 31, '1']],
      ['right_window_size', [-5, Infinity, null]],
    ]);
    call.attributes = { ...call.attributes, [name]: pick(random, values) };
    return [name];
  },
  function unknownKey(call, random) {
    if (random() < 0.5) {
      const key = pick(random, ['q', 'mask', 'pastKey', 'attention_mask']);
      call.inputs = { ...call.inputs, [key]: call.inputs.Q };
      return [key];
    }
    const key = pick(random, ['causal', 'isCausal', 'num_heads', 'window']);
    call.attributes = { ...call.attributes, [key]: 1 };
    return [key];
  },
  function badOutputs(call, random) {
    call.outputs = pick(random, [
      'Y',
      ['Y', 'y'],
      ['Y', 'Y'],
      ['present_key'],
      [1],
      ['Y', 'present_key', 'present_value', 'qk_matmul_output', 'Y'],
    ]);
    return ['outputs', 'Y', 'present_key', 'present_value'];
  },
];

describe(`${CALLS} seeded random hostile onnxAttention() calls`, () => {
  test('valid calls compute right, broken ones name the culprit, nothing leaks', () => {
    const outcomes = { returned: 0, TypeError: 0, RangeError: 0 };
    for (let index = 0; index < CALLS; index++) {
      const random = seededRandom(0x0bad0000 + index);
      const spec = randomCase(index % 120);
      const { inputs, inputs64 } = caseInputs(spec, seededRandom(spec.seed));
      const call = {
        inputs,
        attributes: { ...spec.attributes },
        outputs: spec.outputs.map((o) => o.name),
      };
      const touched = [];
      const count = pick(random, [1, 1, 2, 3]);
      const applied = [];
      for (let m = 0; m < count; m++) {
        if (random() < 0.45) {
          const form = pick(random, VALID_FORMS);
          form(call, random);
          applied.push(form.name);
        } else {
          const mutation = pick(random, BREAKS);
          touched.push(...mutation(call, random));
          applied.push(mutation.name);
        }
      }
      const label = `#${index} (${spec.name}; ${applied.join(', ')})`;
      let result;
      let error;
      try {
        result = attn.onnxAttention(call.inputs, call.attributes, call.outputs);
      } catch (e) {
        error = e;
      }
      assert.equal(attn.memoryStats().allocatedBytes, baseline, `${label}: leaked`);
      if (touched.length === 0) {
        assert.equal(error, undefined, `${label}: a valid call threw ${error}`);
        const expected = onnxAttention64(inputs64, spec.attributes);
        for (const name of call.outputs)
          compare(result[name], expected[name].data, `${label}: ${name}`);
        outcomes.returned += 1;
      } else {
        assert.ok(error, `${label}: a broken call returned`);
        assert.ok(error instanceof TypeError || error instanceof RangeError, `${label}: ${error}`);
        assert.ok(
          touched.some((name) => namesIt(error.message, name)),
          `${label}: "${error.message}" names none of ${touched.join(', ')}`,
        );
        outcomes[error.constructor.name] += 1;
      }
    }
    console.log('onnxAttention() hostile outcomes:', outcomes);
    for (const [kind, n] of Object.entries(outcomes)) assert.ok(n >= 100, `only ${n} ${kind}`);
  });
});
