// attn.createTinyTransformer(config): a decoder-only transformer that trains in wasm memory (the
// core's TinyTransformer, src/attention/model/transformer.hpp). The model, its gradients and
// its AdamW state stay in wasm memory between steps; each call copies in only its tokens and
// copies out only its results.
//
// Names: V vocabSize, C context, B batch, T tokens per sequence (T <= C), L layers, H heads.
//   trainStep({ tokens, targets, batch }): tokens, targets Int32Array [B, T] -> the loss
//   forward({ tokens, batch, headMask }): logits [B, T, V], attention [L, B, H, T, T];
//                                headMask [L, H] switches heads off (decoding-options.mjs)
//   generate(prompt, count, { temperature, topK, seed, headMask, bannedIds }):
//                                count new tokens (Int32Array), greedy without options, never
//                                one of bannedIds
//   parameters() / loadParameters(p): { name: { data, dims } }
// Every argument is read exactly once (read-once.mjs): read, measure, validate, copy. A refused
// call changes nothing: every check runs before the model is touched, and the core refuses a
// step whose loss or gradients are not finite, and parameters that are not, before it applies
// them. The model's handle is taken after the arguments are read: a getter in them may have
// called free().
import {
  checkFloat32,
  checkIntegerIn,
  describe,
  finiteFloats,
  formatBytes,
  isOptionBag,
  nonFiniteWeight,
} from '../shared/checks.mjs';
import {
  measureTypedArray,
  measuredBytes,
  readArray,
  readArrayOfLength,
  readOwnOptions,
  setBytes,
} from '../shared/read-once.mjs';
import { bannedTable, readGenerateOptions, readHeadMask } from './decoding-options.mjs';

/**
 * The config's positions choices, the default first: the core's (positions_choices in
 * src/attention/model/transformer.hpp, registered as TransformerPositions), in its order. The
 * package exports the list: chapter 3's positions switch offers these.
 */
export const TRANSFORMER_POSITIONS = Object.freeze(['learned', 'rope', 'alibi', 'none']);

/** createTinyTransformer's config fields (createTrainer passes the same config on). */
export const CONFIG_KEYS = new Set([
  'vocabSize',
  'context',
  'dModel',
  'layers',
  'heads',
  'kvHeads',
  'positions',
  'mlpSize',
  'learningRate',
  'weightDecay',
  'seed',
]);
// trainStep takes what createInductionTask().batch() returns as it is: its `length` (T) is
// checked against the tokens, its `rows` (each row's layout) is for the caller.
const STEP_KEYS = new Set(['tokens', 'targets', 'batch', 'length', 'rows']);
const FORWARD_KEYS = new Set(['tokens', 'batch', 'headMask']);
const OPTIONAL_KEYS = new Set(['batch', 'length', 'rows', 'headMask']);
/** The most tokens one model knows, positions it sees, and its widest layer (all far past
 * what trains in a page, and below the core's size arithmetic limits). */
const LIMITS = { vocabSize: 1 << 20, context: 1 << 14, width: 1 << 14, layers: 256 };
const UINT32_MAX = 0xffffffff;

/** A float32 rate that must be finite and >= 0 (learningRate, weightDecay). */
function checkRate(value, name) {
  const rate = checkFloat32(value, name);
  if (!(rate >= 0)) throw new RangeError(`${name} must be >= 0, got ${rate}`);
  return rate;
}

/** Phases 1 to 3 of createTinyTransformer's config: the validated config, defaults filled. */
function readConfig(config) {
  if (!isOptionBag(config)) {
    throw new TypeError(
      `createTinyTransformer: config must be an object { vocabSize, context, dModel, layers, heads }, got ${describe(config)}`,
    );
  }
  const given = readOwnOptions(config, CONFIG_KEYS, 'createTinyTransformer', 'config');
  for (const name of ['vocabSize', 'context', 'dModel', 'layers', 'heads']) {
    if (given[name] === undefined)
      throw new TypeError(`createTinyTransformer: config.${name} is missing`);
  }
  const vocabSize = checkIntegerIn(given.vocabSize, 'config.vocabSize', 1, LIMITS.vocabSize);
  const context = checkIntegerIn(given.context, 'config.context', 1, LIMITS.context);
  const dModel = checkIntegerIn(given.dModel, 'config.dModel', 1, LIMITS.width);
  const layers = checkIntegerIn(given.layers, 'config.layers', 1, LIMITS.layers);
  const heads = checkIntegerIn(given.heads, 'config.heads', 1, dModel);
  if (dModel % heads !== 0) {
    throw new RangeError(
      `config.heads must divide config.dModel (each head takes dModel / heads numbers): dModel is ${dModel}, heads ${heads}`,
    );
  }
  const kvHeads =
    given.kvHeads === undefined ? heads : checkIntegerIn(given.kvHeads, 'config.kvHeads', 1, heads);
  if (heads % kvHeads !== 0) {
    throw new RangeError(
      `config.kvHeads must divide config.heads (each kv head serves heads / kvHeads query heads): heads is ${heads}, kvHeads ${kvHeads}`,
    );
  }
  const positions = given.positions === undefined ? TRANSFORMER_POSITIONS[0] : given.positions;
  if (!TRANSFORMER_POSITIONS.includes(positions)) {
    const message = `config.positions must be one of ${TRANSFORMER_POSITIONS.map((p) => `'${p}'`).join(', ')}, got ${describe(positions)}`;
    throw typeof positions === 'string' ? new RangeError(message) : new TypeError(message);
  }
  if (positions === 'rope' && (dModel / heads) % 2 !== 0) {
    throw new RangeError(
      `config.positions 'rope' rotates pairs of numbers, so the head size dModel / heads must be even, got ${dModel} / ${heads} = ${dModel / heads}`,
    );
  }
  const mlpSize =
    given.mlpSize === undefined
      ? 0
      : checkIntegerIn(given.mlpSize, 'config.mlpSize', 0, LIMITS.width);
  const learningRate =
    given.learningRate === undefined ? 1e-3 : checkRate(given.learningRate, 'config.learningRate');
  const weightDecay =
    given.weightDecay === undefined ? 0 : checkRate(given.weightDecay, 'config.weightDecay');
  const seed =
    given.seed === undefined ? 0 : checkIntegerIn(given.seed, 'config.seed', 0, UINT32_MAX);
  return Object.freeze({
    vocabSize,
    context,
    dModel,
    layers,
    heads,
    kvHeads,
    positions,
    mlpSize,
    learningRate,
    weightDecay,
    seed,
  });
}

/** A snapshot of an Int32Array argument (measured once, copied into an array of our own). */
function snapshotInts(value, name) {
  const measured = measureTypedArray(value, name);
  if (measured === null || measured.type !== 'Int32Array') {
    throw new TypeError(`${name} must be an Int32Array, got ${describe(value)}`);
  }
  const copy = new Int32Array(measured.length);
  setBytes(new Uint8Array(copy.buffer), measuredBytes(measured, measured.byteLength, name), 0);
  return copy;
}

/** generate()'s prompt when it is not an array: an Int32Array, snapshotted. */
function snapshotTokens(prompt) {
  if (measureTypedArray(prompt, 'prompt')?.type !== 'Int32Array') {
    throw new TypeError(
      `prompt must be an Int32Array or an array of token ids, got ${describe(prompt)}`,
    );
  }
  return snapshotInts(prompt, 'prompt');
}

/**
 * One model: a handle to the core's TinyTransformer in wasm memory, its validated config, the
 * config as the core's value object, and its parameter table (names, dims, offsets).
 */
class TinyTransformer {
  #env; // the module and wrapModule's helpers: { Module, withAllocations, copyOut, memoryLimit, registry }
  #handle;
  #config;
  #core;
  #table;
  #callBytes = { key: '', bytes: 0 };

  constructor(env, handle, config, core, table) {
    this.#env = env;
    this.#handle = handle;
    this.#config = config;
    this.#core = core;
    this.#table = table;
    env.registry.register(this, handle, this);
  }

  /**
   * The handle, or a TypeError once free() has run. Each method asks at its start (a freed
   * model refuses at once) and again after reading its arguments, and only then uses the
   * handle: a getter or Proxy in them may have called free(), and another model may since
   * hold that memory.
   */
  #live(where) {
    if (this.#handle === 0) {
      throw new TypeError(
        `TinyTransformer.${where}: this model has been freed (free()); create a new one with createTinyTransformer`,
      );
    }
    return this.#handle;
  }

  /** The validated config, defaults filled in (frozen). */
  get config() {
    return this.#config;
  }

  /** True once free() has run. */
  get freed() {
    return this.#handle === 0;
  }

  /**
   * Phases 1 to 3 of trainStep / forward: the tokens (and targets) as validated snapshots,
   * batch and T. Token ids are checked here, before anything reaches wasm memory.
   */
  #readBatch(args, where, keys) {
    if (!isOptionBag(args)) {
      throw new TypeError(
        `TinyTransformer.${where}: the argument must be an object { ${[...keys].filter((key) => key !== 'length' && key !== 'rows').join(', ')} }, got ${describe(args)}`,
      );
    }
    const given = readOwnOptions(args, keys, `TinyTransformer.${where}`, 'the argument');
    for (const name of keys) {
      const optional = OPTIONAL_KEYS.has(name);
      if (!optional && given[name] === undefined) {
        throw new TypeError(`TinyTransformer.${where}: ${name} is missing`);
      }
    }
    const tokens = snapshotInts(given.tokens, 'tokens');
    const targets = keys.has('targets') ? snapshotInts(given.targets, 'targets') : null;
    const batch =
      given.batch === undefined ? 1 : checkIntegerIn(given.batch, 'batch', 1, 0x7fffffff);
    const { vocabSize: V, context: C } = this.#config;
    if (tokens.length === 0 || tokens.length % batch !== 0) {
      throw new RangeError(
        `tokens must hold batch * T numbers (batch ${batch} sequences of T tokens), a positive multiple of ${batch}; got ${tokens.length}`,
      );
    }
    const T = tokens.length / batch;
    if (given.length !== undefined && given.length !== T) {
      throw new RangeError(
        `TinyTransformer.${where}: length must be T = tokens.length / batch = ${T}, got ${describe(given.length)}`,
      );
    }
    if (T > C) {
      throw new RangeError(
        `tokens: T = tokens.length / batch = ${tokens.length} / ${batch} = ${T} tokens per sequence, more than the model's context ${C}`,
      );
    }
    for (let i = 0; i < tokens.length; i++) {
      if (!(tokens[i] >= 0 && tokens[i] < V)) {
        throw new RangeError(
          `tokens[${i}] must be a token id from 0 to ${V - 1}, got ${tokens[i]}`,
        );
      }
    }
    if (targets !== null) {
      if (targets.length !== tokens.length) {
        throw new RangeError(
          `targets must hold one target per token, ${tokens.length} numbers, got ${targets.length}`,
        );
      }
      let counted = 0;
      for (let i = 0; i < targets.length; i++) {
        if (!(targets[i] >= -1 && targets[i] < V)) {
          throw new RangeError(
            `targets[${i}] must be -1 (not counted) or a token id from 0 to ${V - 1}, got ${targets[i]}`,
          );
        }
        if (targets[i] >= 0) counted++;
      }
      if (counted === 0) {
        throw new RangeError('targets: every target is -1, so no token counts towards the loss');
      }
    }
    const { layers: L, heads: H } = this.#config;
    const headMask = keys.has('headMask') ? readHeadMask(given.headMask, 'headMask', L * H) : null;
    return { tokens, targets, batch, T, headMask };
  }

  /** Refuses up front a call whose working memory cannot fit in wasm memory. */
  #checkMemory(where, batch, T, training, ioBytes) {
    // The core's count for the last shape asked, kept: training asks the same every step,
    // and converting the config for Embind costs more than the check.
    const key = `${batch} ${T} ${training}`;
    if (this.#callBytes.key !== key) {
      this.#callBytes = {
        key,
        bytes: this.#env.Module.transformerCallBytes(this.#core, batch, T, training),
      };
    }
    const bytes = this.#callBytes.bytes + ioBytes;
    if (bytes > this.#env.memoryLimit) {
      throw new RangeError(
        `TinyTransformer.${where}: batch ${batch} of ${T} tokens needs ${formatBytes(bytes)} of activations${training ? ' and gradients' : ''}, more than the ${formatBytes(this.#env.memoryLimit)} wasm memory can hold; use a smaller batch`,
      );
    }
  }

  trainStep(args) {
    this.#live('trainStep');
    const { tokens, targets, batch, T } = this.#readBatch(args, 'trainStep', STEP_KEYS);
    const handle = this.#live('trainStep');
    this.#checkMemory('trainStep', batch, T, true, tokens.length * 8);
    return this.#env.withAllocations('TinyTransformer.trainStep', (allocate, copyIn) => {
      const pt = copyIn(measureTypedArray(tokens, 'tokens'), tokens.length * 4, 'tokens');
      const pg = copyIn(measureTypedArray(targets, 'targets'), targets.length * 4, 'targets');
      const { loss, error } = this.#env.Module.transformerTrainStep(handle, pt, pg, batch, T);
      if (error) {
        throw new RangeError(
          `TinyTransformer.trainStep: ${error}; the step was refused and the model is unchanged`,
        );
      }
      return loss;
    });
  }

  forward(args) {
    this.#live('forward');
    const { tokens, batch, T, headMask } = this.#readBatch(args, 'forward', FORWARD_KEYS);
    const handle = this.#live('forward');
    const { vocabSize: V, layers: L, heads: H } = this.#config;
    const logitsLength = batch * T * V;
    const attentionLength = L * batch * H * T * T;
    const ioBytes = tokens.length * 4 + (logitsLength + attentionLength + L * H) * 4;
    this.#checkMemory('forward', batch, T, false, ioBytes);
    return this.#env.withAllocations('TinyTransformer.forward', (allocate, copyIn) => {
      const pt = copyIn(measureTypedArray(tokens, 'tokens'), tokens.length * 4, 'tokens');
      const pm = this.#copyInMask(copyIn, headMask);
      const pl = allocate(logitsLength * 4, 'the logits');
      const pa = allocate(attentionLength * 4, 'the attention weights');
      const error = this.#env.Module.transformerForward(handle, pt, batch, T, pl, pa, pm);
      if (error) throw new RangeError(`TinyTransformer.forward: ${error}`);
      return {
        logits: { data: this.#env.copyOut(pl, logitsLength), dims: [batch, T, V] },
        attention: { data: this.#env.copyOut(pa, attentionLength), dims: [L, batch, H, T, T] },
      };
    });
  }

  /** A head mask's address in wasm memory, or 0 for none (every head on). */
  #copyInMask(copyIn, headMask) {
    if (headMask === null) return 0;
    return copyIn(measureTypedArray(headMask, 'headMask'), headMask.length * 4, 'headMask');
  }

  generate(prompt, count, options) {
    this.#live('generate');
    const items = readArray(prompt, 'prompt', LIMITS.context);
    const ids = items ?? snapshotTokens(prompt);
    const { vocabSize: V, context: C, layers: L, heads: H } = this.#config;
    const n = checkIntegerIn(count, 'count', 0, C);
    const { temperature, topK, seed, headMask, bannedIds } = readGenerateOptions(
      options,
      'TinyTransformer.generate',
      L * H,
    );
    const banned = bannedTable(bannedIds, V);
    if (ids.length === 0) throw new RangeError('prompt must hold at least one token, got none');
    const tokens = new Int32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (typeof id !== 'number') {
        throw new TypeError(`prompt[${i}] must be a token id (a number), got ${describe(id)}`);
      }
      if (!Number.isInteger(id) || id < 0 || id >= V) {
        throw new RangeError(`prompt[${i}] must be a token id from 0 to ${V - 1}, got ${id}`);
      }
      tokens[i] = id;
    }
    // Each token but the last new one is fed to the model at its own position.
    if (tokens.length + Math.max(n, 1) - 1 > C) {
      throw new RangeError(
        `prompt (${tokens.length} tokens) and count (${n}) need ${tokens.length + n - 1} positions (every token but the last new one is fed back), more than the model's context ${C}`,
      );
    }
    const handle = this.#live('generate');
    return this.#env.withAllocations('TinyTransformer.generate', (allocate, copyIn) => {
      const pp = copyIn(measureTypedArray(tokens, 'prompt'), tokens.length * 4, 'prompt');
      const pm = this.#copyInMask(copyIn, headMask);
      const pb =
        banned === null ? 0 : copyIn(measureTypedArray(banned, 'bannedIds'), V, 'bannedIds');
      const po = allocate(n * 4, 'the new tokens');
      const error = this.#env.Module.transformerGenerate(
        handle,
        pp,
        tokens.length,
        n,
        po,
        temperature,
        topK,
        seed,
        pm,
        pb,
      );
      if (error) throw new RangeError(`TinyTransformer.generate: ${error}`);
      return this.#env.copyOut(po, n, Int32Array);
    });
  }

  parameters() {
    const address = this.#env.Module.transformerParameterAddress(this.#live('parameters'));
    const out = {};
    for (const { name, dims, offset, count } of this.#table) {
      out[name] = { data: this.#env.copyOut(address + offset * 4, count), dims: [...dims] };
    }
    return out;
  }

  loadParameters(parameters) {
    this.#live('loadParameters');
    if (!isOptionBag(parameters)) {
      throw new TypeError(
        `TinyTransformer.loadParameters: the argument must be an object { name: { data, dims } } as parameters() returns, got ${describe(parameters)}`,
      );
    }
    const names = new Set(this.#table.map((entry) => entry.name));
    // Phase 1: the model's names, own properties only (an extra name is a TypeError there),
    // then each entry's two fields, once.
    const given = readOwnOptions(parameters, names, 'TinyTransformer.loadParameters', 'parameters');
    const read = this.#table.map(({ name, count }) => {
      const entry = given[name];
      if (entry === undefined) {
        throw new TypeError(`TinyTransformer.loadParameters: '${name}' is missing`);
      }
      if (!isOptionBag(entry)) {
        throw new TypeError(
          `parameters['${name}'] must be an object { data, dims }, got ${describe(entry)}`,
        );
      }
      const data = entry.data;
      const dims = readArray(entry.dims, `parameters['${name}'].dims`, 8);
      if (dims === null) {
        throw new TypeError(
          `parameters['${name}'].dims must be an array, got ${describe(entry.dims)}`,
        );
      }
      // An array of another length is refused before it is read (a Proxy may claim 2^32).
      const items = readArrayOfLength(data, `parameters['${name}'].data`, count, 'numbers');
      return { data: items ?? data, dims };
    });
    // Phases 2 and 3: every entry measured and checked before anything is written.
    const checked = this.#table.map(({ name, dims, count }, i) => {
      const entry = read[i];
      const where = `parameters['${name}']`;
      if (entry.dims.length !== dims.length || entry.dims.some((n, j) => n !== dims[j])) {
        throw new RangeError(
          `${where}.dims must be [${dims.join(', ')}], got [${entry.dims.map((n) => (typeof n === 'number' ? n : describe(n))).join(', ')}]`,
        );
      }
      if (Array.isArray(entry.data)) {
        return measureTypedArray(finiteFloats(entry.data, `${where}.data`), `${where}.data`);
      }
      const measured = measureTypedArray(entry.data, `${where}.data`);
      if (measured === null || measured.type !== 'Float32Array') {
        throw new TypeError(
          `${where}.data must be a Float32Array or an array of numbers, got ${describe(entry.data)}`,
        );
      }
      if (measured.length !== count) {
        throw new RangeError(`${where}.data must hold ${count} numbers, got ${measured.length}`);
      }
      return measured;
    });
    // Phase 4: the handle last (a getter above may have freed this model), then the values
    // copied into wasm memory, where the core checks them whole (none may be NaN or
    // +-Infinity) before it replaces the parameters.
    const handle = this.#live('loadParameters');
    const last = this.#table[this.#table.length - 1];
    const total = last.offset + last.count;
    const { Module, withAllocations, copyOut } = this.#env;
    withAllocations('TinyTransformer.loadParameters', (allocate) => {
      const staged = allocate(total * 4, 'the parameters');
      this.#table.forEach(({ name, offset, count }, i) => {
        setBytes(Module.HEAPU8, measuredBytes(checked[i], count * 4, name), staged + offset * 4);
      });
      const { error, index } = Module.transformerLoadParameters(handle, staged, total);
      if (!error) return;
      const entry = this.#table.find((e) => index >= e.offset && index < e.offset + e.count);
      if (!entry) throw new RangeError(`TinyTransformer.loadParameters: ${error}`);
      const value = copyOut(staged + index * 4, 1)[0];
      throw new RangeError(
        `TinyTransformer.loadParameters: ${nonFiniteWeight(`parameters['${entry.name}'].data[${index - entry.offset}]`, value)}; nothing was loaded`,
      );
    });
  }

  /** Releases the model's wasm memory; later use is a TypeError. Calling it again is a no-op. */
  free() {
    if (this.#handle === 0) return;
    this.#env.registry.unregister(this);
    this.#env.Module.transformerFree(this.#handle);
    this.#handle = 0;
  }
}

/**
 * The `createTinyTransformer` method for one instantiated module. `withAllocations` and
 * `copyOut` are wrapModule's (api.mjs): per-call staging buffers are freed even on error, and
 * results leave wasm memory in fresh arrays the caller owns.
 */
export function createTinyTransformerFactory({ Module, withAllocations, copyOut, memoryLimit }) {
  // A model dropped without free() is freed when it is garbage-collected (a safety net only).
  const registry = new FinalizationRegistry((handle) => Module.transformerFree(handle));
  const env = { Module, withAllocations, copyOut, memoryLimit, registry };

  /** The config as the core's TransformerConfig value object. */
  const coreConfig = (c) => ({ ...c, positions: Module.TransformerPositions[c.positions] });

  return function createTinyTransformer(config) {
    const checked = readConfig(config);
    const core = coreConfig(checked);
    const bytes = Module.transformerModelBytes(core);
    if (bytes > memoryLimit) {
      throw new RangeError(
        `createTinyTransformer: this config needs ${formatBytes(bytes)} for its parameters, gradients and AdamW state, more than the ${formatBytes(memoryLimit)} wasm memory can hold`,
      );
    }
    const refused = Module.transformerConfigError(core);
    if (refused) throw new RangeError(`createTinyTransformer: ${refused}`);
    const table = Object.freeze(
      Module.transformerParameterTable(core).map((entry) => Object.freeze(entry)),
    );
    const { handle, error } = Module.transformerCreate(core);
    if (!handle) throw new RangeError(`createTinyTransformer: ${error}`);
    return new TinyTransformer(env, handle, checked, core, table);
  };
}
