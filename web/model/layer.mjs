// Chapter 2's example: one attention layer of a Transformer, the article's inputs grown by a
// fourth token and split into heads. Plain number[][] that the editors change and trace()
// consumes. Dimensions, named once:
//   n        tokens (rows of x), 1 to 8
//   dModel   columns of x, fixed at 4 (the article's d_in); W_O maps back to it
//   heads    query heads, 1 to 4
//   kvHeads  key/value heads, dividing heads (heads: MHA, fewer: GQA, 1: MQA)
//   dHead    columns of one head (queries, keys and values alike), 1 to 4
// Shapes: x n×dModel, wQuery dModel×(heads·dHead), wKey and wValue dModel×(kvHeads·dHead),
// wOut (heads·dHead)×dModel.
import { clampTo, sameRows } from './matrix.mjs';

export const LAYER_LIMITS = Object.freeze({
  minTokens: 1,
  maxTokens: 8,
  maxHeads: 4,
  maxHeadSize: 4,
  dModel: 4,
});

/** The matrices of a layer, in the order the workbench shows them. */
export const LAYER_MATRICES = ['x', 'wQuery', 'wKey', 'wValue', 'wOut'];

// The example's heads are built from the four features of a token (the columns of x):
// features 1 and 3 are what token 1 has, features 2 and 4 what token 2 has.
//   head 1: queries and keys are features 1 and 3   -> tokens that share them find each other
//   head 2: queries and keys are features 2 and 4   -> everyone who has them looks at token 2
//   head 3: queries features 1 and 3, keys 2 and 4 -> tokens 1, 3, 4 look at token 2
//   head 4: queries are 0                           -> every score is equal: a plain average
/** The chapter's own example: 4 tokens, 4 heads of size 2, as many kv heads (MHA). */
export function layerExample() {
  return {
    heads: 4,
    kvHeads: 4,
    x: [
      [1, 0, 1, 0],
      [0, 2, 0, 2],
      [1, 1, 1, 1],
      [2, 0, 0, 1],
    ],
    wQuery: [
      [1, 0, 0, 0, 1, 0, 0, 0],
      [0, 0, 1, 0, 0, 0, 0, 0],
      [0, 1, 0, 0, 0, 1, 0, 0],
      [0, 0, 0, 1, 0, 0, 0, 0],
    ],
    wKey: [
      [1, 0, 0, 0, 0, 0, 0, 0],
      [0, 0, 1, 0, 1, 0, 0, 0],
      [0, 1, 0, 0, 0, 0, 0, 0],
      [0, 0, 0, 1, 0, 1, 0, 0],
    ],
    wValue: [
      [1, 0, 0, 0, 1, 0, 1, 0],
      [0, 0, 1, 0, 0, 0, 0, 1],
      [0, 1, 0, 0, 0, 1, 0, 0],
      [0, 0, 0, 1, 0, 0, 0, 0],
    ],
    // Head h's two output columns go back to features 1–2 (heads 1, 3) or 3–4 (heads 2, 4).
    wOut: [
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ],
  };
}

export function layerDimsOf(layer) {
  const { heads, kvHeads } = layer;
  return {
    n: layer.x.length,
    dModel: layer.x[0].length,
    heads,
    kvHeads,
    dHead: layer.wQuery[0].length / heads,
    group: heads / kvHeads,
  };
}

/** The kv head query head h reads (as trace() and onnxAttention group them). */
export const kvHeadOf = (h, dims) => Math.floor(h / dims.group);

/** The kv head counts that divide `heads`, largest (MHA) first. */
export const kvChoices = (heads) =>
  Array.from({ length: heads }, (_, k) => heads - k).filter((kv) => heads % kv === 0);

/** "MHA", "GQA" or "MQA" for these head counts. */
export function sharingKind({ heads, kvHeads }) {
  if (kvHeads === heads) return 'mha';
  return kvHeads === 1 ? 'mqa' : 'gqa';
}

export function sameLayer(a, b) {
  return (
    a.heads === b.heads &&
    a.kvHeads === b.kvHeads &&
    LAYER_MATRICES.every((name) => sameRows(a[name], b[name]))
  );
}

/**
 * Column blocks of a weight matrix, one per head of `size` columns, rebuilt for new heads:
 * block b of the result is block pick(b) of the old one (none when pick(b) is -1), cut or
 * padded with 0 to `newSize`.
 */
function reblock(matrix, oldSize, newSize, blocks, pick) {
  return matrix.map((row) =>
    Array.from({ length: blocks * newSize }, (_, c) => {
      const block = pick(Math.floor(c / newSize));
      const within = c % newSize;
      return block >= 0 && within < oldSize ? (row[block * oldSize + within] ?? 0) : 0;
    }),
  );
}

/**
 * A copy of the layer with new dims ({ n, heads, kvHeads, dHead }, clamped). Heads that stay
 * keep their weights; new ones start at 0. When the kv heads change, kv head g of the new
 * layer takes the keys and values of the old kv head that served its first query head, so
 * MHA -> GQA keeps one head's K and V per group (and GQA -> MHA copies them back to each;
 * withKvHeads brings back the ones there were).
 */
export function withLayerDims(layer, changes) {
  const old = layerDimsOf(layer);
  const n = clampTo(changes.n ?? old.n, LAYER_LIMITS.minTokens, LAYER_LIMITS.maxTokens);
  const heads = clampTo(changes.heads ?? old.heads, 1, LAYER_LIMITS.maxHeads);
  const dHead = clampTo(changes.dHead ?? old.dHead, 1, LAYER_LIMITS.maxHeadSize);
  let kvHeads = changes.kvHeads ?? (changes.heads !== undefined ? heads : old.kvHeads);
  if (!kvChoices(heads).includes(kvHeads)) kvHeads = heads;
  const group = heads / kvHeads;
  // The old kv head serving query head h (clamped: a new head past the old ones has none).
  const oldKvOf = (h) => Math.floor(Math.min(h, old.heads - 1) / old.group);
  const sameHead = (h) => (h < old.heads ? h : -1);
  const x = Array.from({ length: n }, (_, i) =>
    Array.from({ length: old.dModel }, (_, j) => layer.x[i]?.[j] ?? 0),
  );
  const blocksOf = (matrix, blocks, pick) => reblock(matrix, old.dHead, dHead, blocks, pick);
  const kvPick = (g) => (g * group < old.heads ? oldKvOf(g * group) : -1);
  const wOutRows = Array.from({ length: heads * dHead }, (_, r) => {
    const h = Math.floor(r / dHead);
    const within = r % dHead;
    if (h >= old.heads || within >= old.dHead) return layer.wOut[0].map(() => 0);
    return layer.wOut[h * old.dHead + within].slice();
  });
  return {
    heads,
    kvHeads,
    x,
    wQuery: blocksOf(layer.wQuery, heads, sameHead),
    wKey: blocksOf(layer.wKey, kvHeads, kvPick),
    wValue: blocksOf(layer.wValue, kvHeads, kvPick),
    wOut: wOutRows,
  };
}

/**
 * The layer with `kvHeads` K/V heads, where switching back restores what was there:
 * `remembered` is the layer as it was before its K/V heads were shared (or null). While the
 * layer is still that one with only its K/V heads shared (nothing edited since), the switch
 * starts from it, so MHA -> MQA -> MHA gives every head its own keys and values back;
 * otherwise from the layer as it is. Returns { layer, remembered } (the one to keep).
 */
export function withKvHeads(layer, kvHeads, remembered = null) {
  const shared = remembered && withLayerDims(remembered, { kvHeads: layer.kvHeads });
  const base = shared && sameLayer(shared, layer) ? remembered : layer;
  return { layer: withLayerDims(base, { kvHeads }), remembered: base };
}

/** A copy with one entry of one matrix changed. */
export function withLayerEntry(layer, name, row, col, value) {
  const copy = cloneLayer(layer);
  copy[name][row][col] = value;
  return copy;
}

export function cloneLayer(layer) {
  const copy = { heads: layer.heads, kvHeads: layer.kvHeads };
  for (const name of LAYER_MATRICES) copy[name] = layer[name].map((row) => row.slice());
  return copy;
}

/**
 * A real model the page sizes: Meta's Llama 3 8B (its published configuration: 32 layers,
 * d_model 4096, 32 query heads sharing 8 K/V heads (GQA), heads of 128, a context of 8192
 * tokens, weights and cache in bfloat16, 2 bytes a number).
 */
export const LLAMA_3_8B = Object.freeze({
  name: 'Llama 3 8B',
  layers: 32,
  dModel: 4096,
  heads: 32,
  kvHeads: 8,
  dHead: 128,
  context: 8192,
  bytes: 2,
});

/** The model sizes chapter 2's cache calculator starts with: Llama 3 8B's, at its full context. */
export const MODEL_DEFAULTS = Object.freeze({
  layers: LLAMA_3_8B.layers,
  heads: LLAMA_3_8B.heads,
  kvHeads: LLAMA_3_8B.kvHeads,
  dHead: LLAMA_3_8B.dHead,
  tokens: LLAMA_3_8B.context,
  bytes: LLAMA_3_8B.bytes,
});
