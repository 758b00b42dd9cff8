// trace(): seeded valid calls (one head, or a layer with heads, kvHeads and W_O), the mutations
// that break them, and the oracle (judgeTrace), an independent reading of the contract.
import {
  BAD_DIMS,
  BAD_OPTION_VALUES,
  JUNK,
  SKIPPED,
  TRACE_LIMIT,
  TRACE_MAX_HEADS,
  isDim,
  isFloat32,
  isObject,
  setKey,
} from './inputs.mjs';
import { show } from './checks.mjs';
import { optionNames } from '../../../src/js/attention/attention-options.mjs';

const TRACE_ARGS = ['x', 'wQuery', 'wKey', 'wValue'];
// The options trace() takes, from the options record's one list (as attention-calls.mjs).
const OPTIONS = optionNames('trace');
for (const name of OPTIONS) {
  if (!BAD_OPTION_VALUES[name]) throw new Error(`the hostile suite has no bad values for ${name}`);
}
// Options of the record that trace() does not take: unknown keys to it.
const OTHER_OPTIONS = optionNames('attention')
  .concat(optionNames('attend'))
  .filter((name) => !OPTIONS.includes(name));
const TRACE_RELATIVES = {
  x: ['wQuery', 'wKey', 'wValue'],
  wQuery: ['wKey', 'x'],
  wKey: ['wQuery', 'x'],
  wValue: ['x'],
};

export function nested(rows, cols, t) {
  return Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () => (t.random() * 2 - 1) * 2),
  );
}
const asMatrix = (rows) => ({
  rows: rows.length,
  cols: rows[0].length,
  data: Float32Array.from(rows.flat()),
});

export function validTraceCall(t) {
  const n = t.int(1, 7);
  const dIn = t.int(1, 6);
  const form = (rows) => (t.random() < 0.5 ? rows : asMatrix(rows));
  // One head as in the article, or a layer of 1 to 4 heads (kvHeads dividing) and maybe W_O.
  const layer = t.random() < 0.4;
  const heads = layer ? t.int(1, 4) : 1;
  const kvHeads = layer ? t.pick([1, 2, 3, 4].filter((k) => heads % k === 0)) : 1;
  const dKHead = t.int(1, layer ? 3 : 6);
  const dVHead = t.int(1, layer ? 3 : 6);
  const args = {
    x: form(nested(n, dIn, t)),
    wQuery: form(nested(dIn, heads * dKHead, t)),
    wKey: form(nested(dIn, kvHeads * dKHead, t)),
    wValue: form(nested(dIn, kvHeads * dVHead, t)),
  };
  if (layer) {
    args.heads = heads;
    if (t.random() < 0.7) args.kvHeads = kvHeads;
    else args.wKey = args.wQuery; // kvHeads defaults to heads: MHA, wKey as wide as wQuery
    if (args.kvHeads === undefined) args.wValue = form(nested(dIn, heads * dVHead, t));
    if (t.random() < 0.5) args.wOut = form(nested(heads * dVHead, t.int(1, 5), t));
  }
  if (t.random() < 0.3) args.scale = t.pick([1, 0.5, -2, 0, 1 / Math.sqrt(dKHead)]);
  if (t.random() < 0.3) args.isCausal = t.random() < 0.5;
  return { args: [args] };
}

// `rows`: the fine matrix (nested arrays) to break.
function wrongMatrices(rows, t) {
  const cols = rows[0].length;
  const withCell = (value) => {
    const copy = rows.map((r) => r.slice());
    copy[t.int(0, copy.length - 1)][t.int(0, cols - 1)] = value;
    return copy;
  };
  return [
    ...JUNK.map((j) => () => j),
    () => [], // no rows
    () => [[]], // no columns
    () => rows.flat(), // flat, not nested
    () => [...rows, [...rows[0], 1]], // ragged: one row too long
    () => [...rows.map((r) => r.slice()), rows[0].slice(1)], // ragged, maybe empty last row
    () => {
      const sparse = rows.map((r) => r.slice()); // a hole in the outer array
      sparse.length += 1;
      sparse.push(rows[0].slice());
      return sparse;
    },
    () => {
      const copy = rows.map((r) => r.slice()); // a hole inside a row
      delete copy[0][t.int(0, cols - 1)];
      return copy;
    },
    () => withCell(String(t.random())),
    () => withCell(null),
    () => withCell(undefined),
    () => withCell(1n),
    () => withCell([1]),
    () => withCell(new Number(1)),
    () => withCell(true),
    () => withCell(t.pick([NaN, Infinity, -Infinity, -0, 1e-40])), // data: valid
    () => rows.map((r) => Float32Array.from(r)), // typed-array rows: not number[][]
    () => ({ ...asMatrix(rows), data: Float64Array.from(rows.flat()) }),
    () => ({ ...asMatrix(rows), data: rows.flat() }),
    () => ({ ...asMatrix(rows), data: new Float32Array(rows.length * cols + 1) }),
    () => ({ ...asMatrix(rows), rows: t.pick([...BAD_DIMS, ...JUNK]) }),
    () => ({ ...asMatrix(rows), cols: t.pick([...BAD_DIMS, ...JUNK]) }),
    () => ({ rows: rows.length, cols }), // no data
    () => ({ ...asMatrix(rows), rows: cols, cols: rows.length }), // transposed dims
    () => new Proxy(rows, {}), // a proxy of a fine array: valid
    () => asMatrix(rows), // a fine matrix: valid
    () => nested(t.int(1, 4), t.int(1, 4), t), // another size: often mismatched
  ];
}

export const TRACE_MUTATIONS = [
  function oddButValid(call, t) {
    // The same numbers in another accepted form, or special values (data, not errors).
    const name = t.pick(TRACE_ARGS);
    if (!isObject(call.args[0])) return SKIPPED;
    const current = readMatrix(call.args[0][name]);
    if (!current) return SKIPPED;
    const rows = current.values.map((row) => row.slice());
    const value = t.pick([
      () => asMatrix(rows),
      () => rows,
      () => new Proxy(rows, {}),
      () => {
        const matrix = asMatrix(rows); // data as a view into a larger buffer
        const backing = new Float32Array(matrix.data.length + 5);
        backing.set(matrix.data, 5);
        return { ...matrix, data: backing.subarray(5) };
      },
      () => {
        rows[t.int(0, rows.length - 1)][t.int(0, rows[0].length - 1)] = t.pick([
          NaN,
          Infinity,
          -Infinity,
          -0,
          1e-40,
        ]);
        return rows;
      },
    ])();
    setKey(call.args[0], name, value);
    return { names: [], what: `${name} = ${show(value)}` };
  },
  function badMatrix(call, t) {
    const name = t.pick(TRACE_ARGS);
    if (!isObject(call.args[0])) return SKIPPED;
    // Break a fine matrix: the current one, or a fresh 2 x 3 if an earlier mutation broke it.
    const current = readMatrix(call.args[0][name])?.values ?? nested(2, 3, t);
    const value = t.pick(wrongMatrices(current, t))();
    setKey(call.args[0], name, value);
    return { names: [name, ...TRACE_RELATIVES[name]], what: `${name} = ${show(value)}` };
  },
  function dropArgument(call, t) {
    const name = t.pick(TRACE_ARGS);
    if (!isObject(call.args[0])) return SKIPPED;
    delete call.args[0][name];
    return { names: [name], what: `${name} deleted` };
  },
  function badOption(call, t) {
    const name = t.pick(OPTIONS);
    const value = t.pick(BAD_OPTION_VALUES[name]);
    if (!isObject(call.args[0])) return SKIPPED;
    setKey(call.args[0], name, value);
    return { names: [name], what: `${name} = ${show(value)}` };
  },
  function badHeadCount(call, t) {
    // Junk, a count past the limit, or a fine integer that may not divide what it must.
    const name = t.pick(['heads', 'kvHeads']);
    const value = t.pick([...JUNK, ...BAD_DIMS, TRACE_MAX_HEADS + 1, 1, 2, 3, 4, 6]);
    if (!isObject(call.args[0])) return SKIPPED;
    setKey(call.args[0], name, value);
    return {
      names: ['heads', 'kvHeads', 'wQuery', 'wKey', 'wValue', 'wOut'],
      what: `${name} = ${show(value)}`,
    };
  },
  function badWOut(call, t) {
    if (!isObject(call.args[0])) return SKIPPED;
    const current = readMatrix(call.args[0].wOut)?.values ?? nested(2, 3, t);
    const value = t.pick(wrongMatrices(current, t))();
    setKey(call.args[0], 'wOut', value);
    return { names: ['wOut', 'heads', 'wValue'], what: `wOut = ${show(value)}` };
  },
  function unknownKey(call, t) {
    const key = t.pick(['X', 'wq', 'w_query', 'scaled', 'causal', 'attnMask', ...OTHER_OPTIONS]);
    if (!isObject(call.args[0])) return SKIPPED;
    setKey(call.args[0], key, call.args[0].x);
    return { names: [key], what: `unknown key ${key}` };
  },
  function badArgumentObject(call, t) {
    call.args = t.pick([[], [null], ['x'], [42], [call.args[0]?.x], [undefined, call.args[0]]]);
    return { names: ['trace', 'argument', 'x'], what: `arguments ${show(call.args)}` };
  },
  function sizeBomb(call, t) {
    // Small inputs whose intermediates (n x n x d_v for `weighted`) pass the trace limit.
    const n = t.int(1500, 5000);
    const dV = Math.ceil(TRACE_LIMIT / (n * n)) + t.int(0, 3);
    call.args = [
      {
        x: { rows: n, cols: 1, data: new Float32Array(n) },
        wQuery: [[1]],
        wKey: [[1]],
        wValue: [Array.from({ length: dV }, () => 1)],
      },
    ];
    return { names: ['x', 'wValue'], what: `size bomb n = ${n}, d_v = ${dV}` };
  },
];

function readMatrix(m) {
  if (Array.isArray(m)) {
    // Index loops, not every()/some(): those skip the holes of a sparse array.
    if (m.length === 0) return null;
    for (let i = 0; i < m.length; i++) if (!Array.isArray(m[i])) return null;
    const cols = m[0].length;
    if (cols === 0) return null;
    for (let i = 0; i < m.length; i++) {
      if (m[i].length !== cols) return null;
      for (let j = 0; j < cols; j++) if (typeof m[i][j] !== 'number') return null;
    }
    return { rows: m.length, cols, values: m.map((row) => row.map(Math.fround)) };
  }
  if (m === null || typeof m !== 'object') return null;
  if (!isDim(m.rows) || !isDim(m.cols) || !(m.data instanceof Float32Array)) return null;
  if (m.data.length !== m.rows * m.cols) return null;
  const values = Array.from({ length: m.rows }, (_, i) =>
    Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)),
  );
  return { rows: m.rows, cols: m.cols, values };
}

/** The contract for trace(args), restated: { valid, args64 } | { tooBig } | { valid: false }. */
export function judgeTrace(callArgs) {
  const invalid = { valid: false };
  const [args] = callArgs;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return invalid;
  const allowed = [...TRACE_ARGS, 'wOut', 'heads', 'kvHeads', ...OPTIONS];
  if (Object.keys(args).some((key) => !allowed.includes(key))) return invalid;
  const m = {};
  for (const name of TRACE_ARGS) {
    m[name] = readMatrix(args[name]);
    if (!m[name]) return invalid;
  }
  if (args.wOut !== undefined) {
    m.wOut = readMatrix(args.wOut);
    if (!m.wOut) return invalid;
  }
  const { scale, isCausal, softcap, alibi, heads = 1 } = args;
  const { kvHeads = heads } = args;
  const isHeadCount = (x) => isDim(x) && x <= TRACE_MAX_HEADS;
  if (!isHeadCount(heads) || !isHeadCount(kvHeads) || heads % kvHeads !== 0) return invalid;
  const dIn = m.x.cols;
  if (m.wQuery.rows !== dIn || m.wKey.rows !== dIn || m.wValue.rows !== dIn) return invalid;
  // wQuery: heads blocks of d_k_head columns; wKey: kvHeads such blocks; wValue: kvHeads
  // blocks of d_v_head; wOut: one row per column of the heads' outputs side by side.
  if (m.wQuery.cols % heads !== 0) return invalid;
  const dKHead = m.wQuery.cols / heads;
  if (m.wKey.cols !== kvHeads * dKHead) return invalid;
  if (m.wValue.cols % kvHeads !== 0) return invalid;
  const dVHead = m.wValue.cols / kvHeads;
  if (m.wOut && m.wOut.rows !== heads * dVHead) return invalid;
  if (scale !== undefined && !isFloat32(scale)) return invalid;
  if (isCausal !== undefined && typeof isCausal !== 'boolean') return invalid;
  if (softcap !== undefined && !(isFloat32(softcap) && softcap >= 0)) return invalid;
  if (alibi !== undefined && alibi !== false) {
    const slopes = alibi instanceof Float32Array && alibi.length === heads;
    if (alibi !== true && !(slopes && alibi.every(Number.isFinite))) return invalid;
    // BAD_OPTION_VALUES holds no valid slopes but `false`: the reference has no ALiBi.
    throw new Error(`judgeTrace cannot judge alibi = ${show(alibi)}`);
  }
  const n = m.x.rows;
  // Per head: queries, keys, values, outputs; scores, exponentials, weights, mask; rowMax,
  // rowSums; weighted. A layer adds concat and outputs.
  const perHead = 2 * n * dKHead + 2 * n * dVHead + 4 * n * n + 2 * n + n * n * dVHead;
  const single = heads === 1 && !m.wOut;
  const layer = single ? 0 : n * heads * dVHead + n * (m.wOut ? m.wOut.cols : heads * dVHead);
  const total = heads * perHead + layer;
  if (total > TRACE_LIMIT) return { valid: true, tooBig: total * 4 };
  const args64 = { scale, isCausal, softcap, heads, kvHeads };
  for (const name of [...TRACE_ARGS, 'wOut']) args64[name] = m[name]?.values;
  return { valid: true, args64, dims: { n, dKHead, dVHead, heads, single } };
}
