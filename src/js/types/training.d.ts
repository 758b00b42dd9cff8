// Training: the tiny transformer (AttentionApi.createTinyTransformer) and createTrainer, which
// trains one in a worker.
import type { AttentionApi } from './api.js';
import type { AttentionOptions } from './attention.js';
import type { CreateAttentionOptions } from '../attention.js';
import type {
  CharTokenizer,
  TEXT_MODEL,
  TEXT_TASK,
  createCharTokenizer,
  createInductionTask,
  createTextTask,
} from './tasks.js';

/**
 * The tiny transformer's positions choices ({@link TinyTransformerConfig.positions}), the
 * default first; an app can offer them as they are (chapter 3's switch does):
 * - 'learned': a [C, D] table added to the token embedding, trained from sinusoids: row t holds
 *   cos(t θ_i) then sin(t θ_i), θ_i from 1 radian per position down to 1 radian over the
 *   context;
 * - 'rope': rotary embedding of every head's queries and keys, base 10000, pairs
 *   (i, i + d / 2); needs an even head size;
 * - 'alibi': no table: ALiBi's standard slopes, `slope_h * (s - t)` added to head h's score of
 *   key s for query t, as {@link AttentionOptions.alibi} with `true`;
 * - 'none': no positions.
 */
export const TRANSFORMER_POSITIONS: readonly ['learned', 'rope', 'alibi', 'none'];

/** One of {@link TRANSFORMER_POSITIONS}. */
export type TransformerPositions = (typeof TRANSFORMER_POSITIONS)[number];

/**
 * Config of {@link AttentionApi.createTinyTransformer}. Names: V vocabSize, C context, D dModel,
 * L layers, H heads, Hkv kvHeads, d = D / H the head size, M mlpSize. Read once, own properties
 * only; integers unless said otherwise.
 */
export interface TinyTransformerConfig {
  /** V: token ids are 0 .. V - 1 (1 to 2^20). */
  vocabSize: number;
  /** C: the most tokens per sequence, T <= C (1 to 16384). */
  context: number;
  /** D: the width of the residual stream (1 to 16384). */
  dModel: number;
  /** L: attention layers (1 to 256). */
  layers: number;
  /** H: query heads per layer; must divide dModel. */
  heads: number;
  /** Hkv: key/value heads (grouped-query attention); must divide heads. Defaults to heads. */
  kvHeads?: number;
  /**
   * How the model knows where a token is, one of {@link TRANSFORMER_POSITIONS} (default
   * 'learned').
   */
  positions?: TransformerPositions;
  /** M: the MLP's hidden size after each attention; 0 (the default) for attention-only layers. */
  mlpSize?: number;
  /** AdamW's step size (finite, >= 0). Defaults to 0.001. */
  learningRate?: number;
  /** AdamW's decoupled weight decay, applied to every parameter (finite, >= 0). Defaults to 0. */
  weightDecay?: number;
  /** Seeds the initial parameters (0 to 2^32 - 1). Defaults to 0. */
  seed?: number;
}

/** A batch of B sequences of T tokens each (T <= context), as trainStep and forward take it. */
export interface TinyTransformerBatch {
  /** Token ids, [B, T] row after row. */
  tokens: Int32Array;
  /** B (>= 1, divides tokens.length). Defaults to 1. */
  batch?: number;
}

/**
 * Switches heads off (or dims them) in {@link TinyTransformer.forward} and
 * {@link TinyTransformer.generate}: one factor per head, layer by layer (`headMask[l * heads + h]`
 * for head h of layer l, L * H numbers), each from 0 to 1. A head's output rows are multiplied by
 * its factor before W_O: 0 and the head adds nothing to its layer's output (exactly as if its
 * rows of W_O were zero), 1 leaves it as it is (a mask of all ones gives the same bits as no
 * mask). Training never sees a mask. An array of numbers or a Float32Array (Float64Array too),
 * copied when the call is made.
 */
export type HeadMask = readonly number[] | Float32Array | Float64Array;

/**
 * How {@link TinyTransformer.generate} chooses each new token. Read once, own properties only.
 */
export interface GenerateOptions {
  /**
   * 0 (the default): greedy, the first of the largest logits. Above 0: a draw from
   * softmax(logits / temperature) (below 1 sharper, above 1 flatter). Finite.
   */
  temperature?: number;
  /** Draw among the topK largest logits only (ties ranked by the lower id); 0 (the default), or vocabSize and more, means among all. topK 1 is greedy. */
  topK?: number;
  /** Seeds the draws (0 to 2^32 - 1; default 0): the same model, prompt and options give the same tokens. */
  seed?: number;
  /** Heads switched off while generating ({@link HeadMask}). */
  headMask?: HeadMask;
  /**
   * Token ids never chosen, greedy or drawn: the draw is among the other ids (topK counts only
   * those), as if the banned ids' logits were -Infinity. An Int32Array or an array of ids from
   * 0 to vocabSize - 1, repeats allowed; at least one id must be left. Default: none, except in
   * {@link Trainer.generate} of a text trainer, which bans its tokenizer's unknown id
   * ({@link CharTokenizer.unknownId}: it decodes to U+FFFD, no character to write); give `[]`
   * to allow it.
   * @example
   * ```ts
   * model.generate(prompt, 20, { temperature: 0.8, bannedIds: [tokenizer.unknownId] });
   * ```
   */
  bannedIds?: Int32Array | readonly number[];
}

/** One parameter tensor, row-major. Weights are [in, out]: a row times the matrix. */
export interface TinyTransformerTensor {
  data: Float32Array;
  dims: number[];
}

/**
 * A decoder-only transformer that trains in wasm memory: token embedding (+ positions),
 * L layers of pre-LayerNorm causal multi-head attention (W_Q, W_K, W_V, W_O, no biases) and,
 * when mlpSize > 0, an MLP (Linear D -> M, GELU in its tanh form, Linear M -> D), residual
 * connections, a final LayerNorm and an unembedding of its own; trained on the mean next-token
 * cross-entropy with AdamW (beta1 0.9, beta2 0.999, eps 1e-8, bias correction).
 *
 * The same seed and the same batches give the same losses, bit for bit, in the same build
 * (the Relaxed SIMD build may differ from the SIMD128 build in the last bits). Free it with
 * `free()`: its memory is not the JS heap's; afterwards every method throws a TypeError.
 * @example
 * ```ts
 * const model = attn.createTinyTransformer({
 *   vocabSize: 16, context: 25, dModel: 32, layers: 2, heads: 4, learningRate: 6e-3, seed: 1,
 * });
 * const loss = model.trainStep({ tokens, targets, batch: 32 }); // Int32Array [32, 25] each
 * const { logits, attention } = model.forward({ tokens: prompt }); // batch 1
 * const next = model.generate([3, 1, 4], 5);                     // 5 greedy tokens
 * const drawn = model.generate([3, 1, 4], 5, { temperature: 0.8, topK: 10, seed: 7 });
 * const without = model.forward({ tokens: prompt, headMask: [1, 0, 1, 1, 1, 1, 1, 1] });
 * model.free();
 * ```
 */
export interface TinyTransformer {
  /** The config with every default filled in (frozen). */
  readonly config: Readonly<Required<TinyTransformerConfig>>;
  /** True once `free()` has run. */
  readonly freed: boolean;
  /**
   * One AdamW step on the mean next-token cross-entropy of `tokens` against `targets`
   * ([B, T] each; target -1 = not counted, else a token id).
   * @returns the loss before the step (a mean over the counted targets, in nats).
   * @throws TypeError / RangeError naming the bad tensor or token (a token outside
   *   [0, vocabSize), a target outside [-1, vocabSize), every target -1, T > context, ...);
   *   RangeError when the loss or a gradient is not finite: that step is refused and the
   *   parameters and AdamW state stay exactly as they were.
   */
  trainStep(
    batch: TinyTransformerBatch & {
      targets: Int32Array;
      /** T, when given (from {@link createInductionTask}'s batch): checked against the tokens. */
      length?: number;
      /** Each row's layout, as the batch of {@link createInductionTask} gives it; not used. */
      rows?: readonly { p: number; n: number }[];
    },
  ): number;
  /**
   * The model on `tokens` without training, with the heads of `headMask` switched off (or
   * dimmed) when it is given.
   * @returns fresh arrays: `logits` [B, T, V] and every head's attention weights
   *   `attention` [L, B, H, T, T] (row t of a head: its softmax over keys 0 .. t, zeros after;
   *   a masked head's weights are still shown: the mask acts on its output).
   * @throws TypeError / RangeError as trainStep, and for a headMask that is not L * H numbers
   *   from 0 to 1 (naming the first bad factor).
   */
  forward(batch: TinyTransformerBatch & { headMask?: HeadMask }): {
    logits: TinyTransformerTensor;
    attention: TinyTransformerTensor;
  };
  /**
   * Decoding: feeds `prompt`, then each new token back, one at a time through a per-layer
   * key/value cache in wasm memory. Without options each new token is the argmax (the first on
   * ties) of the last logits, as `forward()` over the growing sequence would pick it; with a
   * temperature above 0 it is drawn from softmax(logits / temperature) over the topK largest,
   * by a generator seeded with `seed` ({@link GenerateOptions}).
   * @param prompt at least one token id.
   * @param count new tokens wanted, 0 to context; prompt.length + count - 1 <= context.
   * @returns the `count` new tokens.
   * @throws TypeError / RangeError naming the bad token, count or option (a negative or
   *   non-finite temperature, a topK or seed that is not an integer from 0 to 2^32 - 1, a
   *   headMask of the wrong length or with a factor outside [0, 1], a banned id outside
   *   [0, vocabSize) or every id banned, an unknown option).
   */
  generate(
    prompt: Int32Array | readonly number[],
    count: number,
    options?: GenerateOptions,
  ): Int32Array;
  /**
   * A fresh copy of every parameter, by name, in the model's order: 'embedding.tokens' [V, D],
   * 'embedding.positions' [C, D] (learned positions only), then for each layer l
   * 'layers.l.norm1.gain' / '.bias' [D], 'layers.l.attention.wq' [D, H d], '.wk' and '.wv'
   * [D, Hkv d], '.wo' [H d, D], and with an MLP 'layers.l.norm2.gain' / '.bias' [D],
   * 'layers.l.mlp.w1' [D, M], '.b1' [M], '.w2' [M, D], '.b2' [D]; then 'norm.gain' /
   * 'norm.bias' [D] and 'unembedding' [D, V].
   *
   * To store it as JSON, turn the Float32Arrays into arrays:
   * `JSON.stringify(p, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v))`;
   * `loadParameters(JSON.parse(text))` takes that back.
   */
  parameters(): Record<string, TinyTransformerTensor>;
  /**
   * Replaces every parameter: the same names and dims as `parameters()` gives, each `data` a
   * Float32Array or an array of numbers. A missing, extra or inherited (prototype) name, any
   * wrong dims or length, or a value that is not finite as a float32 (NaN, +-Infinity, 1e39:
   * such a model computes NaN everywhere) refuses the whole set (TypeError / RangeError naming
   * the tensor, and the index of a bad value) and changes nothing. Loading restarts AdamW (its
   * moments and step count belong to the old parameters).
   */
  loadParameters(
    parameters: Record<string, { data: Float32Array | readonly number[]; dims: readonly number[] }>,
  ): void;
  /** Releases the model's wasm memory; later use is a TypeError. Calling it again is a no-op. */
  free(): void;
}

/** Options of {@link createTrainer}, read once, own properties only. */
export interface TrainerOptions {
  /**
   * The model's config, as {@link AttentionApi.createTinyTransformer} takes it. For the
   * induction task, vocabSize at least 16 and context at least 25 (its tokens and rows); for
   * a text, vocabSize may be left out (the tokenizer's vocabulary; at least that if
   * given) and the text's first nine tenths must hold a window of context characters and
   * one more (e.g. {@link TEXT_MODEL}). Its seed defaults to this trainer's
   * {@link TrainerOptions.seed}.
   */
  config:
    TinyTransformerConfig | (Omit<TinyTransformerConfig, 'vocabSize'> & { vocabSize?: number });
  /**
   * The workload: 'induction' (the default; {@link createInductionTask}) or `{ text,
   * minCount, inputDropout }`: next characters of any string, trained on its first nine
   * tenths, its last tenth held out for {@link Trainer.evaluate} ({@link createTextTask},
   * which says what minCount and inputDropout do; {@link TEXT_TASK} is what the Tang poems
   * train with).
   */
  task?: 'induction' | { text: string; minCount?: number; inputDropout?: number };
  /** Seeds the training batches (and the model, unless config.seed is given). Default 1. */
  seed?: number;
  /** Rows per training step (default 32). */
  batch?: number;
  /**
   * Called in the host for each progress event. If it throws, the run stops and its
   * {@link Trainer.train} promise rejects with what it threw; the trainer stays usable.
   */
  onProgress?: (event: TrainerProgress) => void;
  /** Where the worker script is, if not `train-worker.mjs` next to this file. */
  workerUrl?: string | URL;
  /**
   * In a browser, how `workerUrl` is started: 'module' (the default; train-worker.mjs is a
   * module) or 'classic', for a classic script that speaks the same protocol (a page opened
   * from file:// cannot start module workers). Ignored in Node.
   */
  workerType?: 'module' | 'classic';
  /** How long the worker may take to load the module and build the model (ms, default 30000, at most 2^31 - 1). */
  initTimeout?: number;
  /** As {@link CreateAttentionOptions.relaxedSimd}, for the worker's module. */
  relaxedSimd?: boolean;
  /**
   * As {@link CreateAttentionOptions.threads}: above 1, the worker loads the wasm threads build
   * and every training step shares its matrix products, attention, GELU and AdamW among that
   * many threads (the worker's own and helpers it starts), with the same losses and parameters
   * as one thread, bit for bit. Threads need Node or a cross-origin isolated page: elsewhere a
   * count above 1 is a RangeError, and `'auto'` (the machine's cores, up to 8, where threads
   * run) is 1. Defaults to 1.
   * @throws TypeError / RangeError when not an integer from 1 to 64 or `'auto'`
   */
  threads?: number | 'auto';
}

/** A progress event of a run: sent every `progressEvery` steps, and when the run ends. */
export interface TrainerProgress {
  /** Steps trained since the model was made (or reset). */
  step: number;
  /** The loss of the last step (before its update). */
  loss: number;
  /** Every step's loss since the previous event, oldest first: a loss curve without gaps. */
  losses: Float32Array;
  /** Mean time of those steps' trainStep calls alone, in milliseconds. */
  msPerStep: number;
  /**
   * Every head's weights on one fixed held-out row (for a text: its first held-out window),
   * when a multiple of `attentionEvery` was
   * reached since the previous event: dims [layers, 1, heads, T, T].
   */
  attention?: { data: Float32Array; dims: number[] };
}

/** Options of {@link Trainer.train}. */
export interface TrainOptions {
  /** How many more steps (1 to 10^7). */
  steps: number;
  /** Steps between progress events (default 10). */
  progressEvery?: number;
  /** Include the attention weights in progress events every this many steps (default 0: never). */
  attentionEvery?: number;
}

/**
 * What {@link Trainer.evaluate} measures, on held-out rows (the induction task's: their own
 * seeded sequence, not the training batches; a text's: its last tenth, never trained on).
 */
export interface TrainerEvaluation {
  step: number;
  /** Mean cross-entropy over the counted targets (for a text: nats per character). */
  loss: number;
  /** Share of counted targets whose largest logit is the target. */
  accuracy: number;
  /** For a text: how many held-out characters were scored (all of the last tenth but its first). */
  counted?: number;
  /**
   * The rows evaluated: Int32Array [batch, 25] each (targets -1 where not counted); for a
   * text, its first held-out window only, [1, context].
   */
  tokens: Int32Array;
  targets: Int32Array;
  /** Every head's weights on those rows: dims [layers, batch, heads, T, T]. */
  attention: { data: Float32Array; dims: number[] };
}

/**
 * A tiny transformer training in its own worker. Every method answers by promise; requests
 * run in the order they were made. Bad arguments throw a TypeError / RangeError at once and
 * change nothing. Once the worker dies, misbehaves (a message that is not its protocol's) or
 * {@link Trainer.close} is called, every pending and later call rejects with a
 * {@link TrainerError}; none is left pending.
 */
export interface Trainer {
  /**
   * Trains `steps` more steps on fresh induction batches; resolves when they are done, or
   * early on {@link Trainer.stop} / {@link Trainer.reset} (then `stopped` is true). One run
   * at a time: a second call while one runs rejects.
   */
  train(options: TrainOptions): Promise<{ step: number; loss: number; stopped: boolean }>;
  /** Holds the run after its current step (no CPU used while paused). */
  pause(): Promise<{ step: number }>;
  resume(): Promise<{ step: number }>;
  /** Ends the run; the model keeps what it learnt. */
  stop(): Promise<{ step: number }>;
  /**
   * Loss, accuracy and every head's attention on `batch` held-out rows (default 64; the same
   * rows at every call until a reset with another seed). A text trainer scores its whole
   * held-out tenth and refuses `batch` (a TypeError).
   */
  evaluate(options?: { batch?: number }): Promise<TrainerEvaluation>;
  /**
   * The model in the worker on one sequence ({@link TinyTransformer.forward} with batch 1),
   * with the heads of `headMask` switched off. `tokens`: ids (an Int32Array or an array), or
   * for a text trainer a string, encoded by its {@link Trainer.tokenizer}. Answered between
   * training steps when a run is going. Kinds and factors are checked at once (a throw); ids
   * against vocabSize, the length against context and the mask against layers * heads in the
   * worker (the promise rejects with that RangeError).
   */
  forward(args: { tokens: Int32Array | readonly number[] | string; headMask?: HeadMask }): Promise<{
    logits: TinyTransformerTensor;
    attention: TinyTransformerTensor;
  }>;
  /**
   * `count` new tokens after `prompt` ({@link TinyTransformer.generate}: greedy without a
   * temperature, else sampled with topK from seed, some heads switched off by headMask, never
   * one of bannedIds). A text trainer takes the prompt as a string too, and by default never
   * writes its tokenizer's unknown id (U+FFFD); the tokens come back as ids: decode them with
   * `trainer.tokenizer.decode`. Checked as {@link Trainer.forward} checks.
   * @example
   * ```ts
   * const ids = await trainer.generate({ prompt: '床前明月光，', count: 24, temperature: 0.8, topK: 8, seed: 1 });
   * console.log(trainer.tokenizer!.decode(ids));
   * ```
   */
  generate(
    args: { prompt: Int32Array | readonly number[] | string; count: number } & GenerateOptions,
  ): Promise<Int32Array>;
  /** The model's parameters ({@link TinyTransformer.parameters}), for export. */
  parameters(): Promise<Record<string, TinyTransformerTensor>>;
  /**
   * Loads parameters of the same names and dims (data: Float32Array or number[]), refused
   * whole as {@link TinyTransformer.loadParameters} refuses them. Names, dims and each data's
   * length are checked against the model before any item is read (this runs on your thread):
   * a wrong one throws at once; a value that is not finite, at once too, or the promise
   * rejects with the model's RangeError naming it.
   */
  loadParameters(
    parameters: Record<string, { data: Float32Array | number[]; dims: number[] }>,
  ): Promise<{ step: number }>;
  /** A new model at step 0, with a new config and/or seed (the current ones by default; a text trainer keeps its text). */
  reset(options?: { config?: TrainerOptions['config']; seed?: number }): Promise<{ step: number }>;
  /** Ends the worker. */
  close(): void;
  /** A text trainer's tokenizer ({@link createCharTokenizer} of its text); null for induction. */
  readonly tokenizer: CharTokenizer | null;
  /**
   * The threads every training step runs on: {@link TrainerOptions.threads} as given, `'auto'`
   * resolved (1 where threads cannot run).
   */
  readonly threads: number;
  /** The last step the worker reported. */
  readonly step: number;
  /** True once the worker is gone. */
  readonly closed: boolean;
}

/** Why a trainer's promise rejected when its worker died, misbehaved or was closed. */
export class TrainerError extends Error {
  name: 'TrainerError';
}

/**
 * Starts a worker (a Web Worker in a page, a worker_thread in Node) holding its own module
 * and a tiny transformer ({@link AttentionApi.createTinyTransformer}), and resolves once the
 * model is built. In Node an idle trainer does not keep the process alive; close() it when done.
 */
export function createTrainer(options: TrainerOptions): Promise<Trainer>;
