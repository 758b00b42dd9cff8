// The Chromium half of scripts/bench, bundled with esbuild (tfjs and onnxruntime-web import
// bare package names). Loads every contender over HTTP from the repository root the static
// server exposes, and waits for bench/run-browser-page.mjs to call window.bench.run(settings).
import * as ort from 'onnxruntime-web/wasm';
import onnxProto from 'onnx-proto';
import * as tf from '@tensorflow/tfjs-core';
// The gradients (tfjs-core alone registers none): the backward and training tables need them.
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

import createAttentionModule from '../../build/wasm/attention.mjs';
import { wrapModule } from '../../src/js/module/api.mjs';
import { runBackwardBench } from '../common/backward.mjs';
import { runDecodeBench } from '../common/decode.mjs';
import { runBench, runCores, runSmall } from '../common/harness.mjs';
import { onnxruntime, peakProbes } from '../common/contenders.mjs';
import { smallCallBreakdown } from '../common/small-calls.mjs';
import { runTextBench } from './text.mjs';
import { runTrainBench } from './train.mjs';

// Our module exactly as shipped: dist/attention.mjs finds attention.wasm next to itself. The
// specifier is a variable so that esbuild leaves this import to the browser.
const oursUrl = '/dist/attention.mjs';

// tfjs-backend-wasm, its wasm file from its own dist/ folder, at one thread (or `threads`:
// its threaded build, which it loads only in a cross-origin isolated page).
async function useTfjsWasm(threads = 1) {
  tfWasm.setWasmPaths('/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
  tfWasm.setThreadsCount(threads);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
}

/**
 * A peak probe built by scripts/bench from bench/peak/simd_peak.c: simd_peak.wasm (mul + add,
 * the SIMD128 build's ruler) or fma_peak.wasm (f32x4.relaxed_madd, the Relaxed SIMD build's).
 */
async function peakInstance(file = 'simd_peak.wasm') {
  const { instance } = await WebAssembly.instantiateStreaming(fetch(`/build/bench/${file}`), {});
  return instance;
}

async function run({ quick }) {
  const log = (line) => console.log(`[bench chromium] ${line}`);
  // Peers' wasm files from their own dist/ folders; one thread each.
  ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';
  await useTfjsWasm();
  const { default: createAttention, hasRelaxedSimd } = await import(oursUrl);
  const attn = await createAttention({ relaxedSimd: false });
  const attnRelaxed = hasRelaxedSimd() ? await createAttention() : null;
  // Each build's ruler: mul + add for SIMD128, FMA for Relaxed SIMD (where the engine has it).
  const probes = peakProbes(
    (await peakInstance()).exports,
    attnRelaxed ? (await peakInstance('fma_peak.wasm')).exports : null,
  );
  const suite = await runBench({ attn, attnRelaxed, ort, onnxProto, tf, probes, quick, log });
  return {
    environment: {
      kind: 'chromium',
      simd: attn.simd,
      relaxedSimd: Boolean(attnRelaxed),
      version: attn.version,
      crossOriginIsolated: self.crossOriginIsolated,
      userAgent: navigator.userAgent,
      // The page cannot see its CPU's model (bench/run-browser-page.mjs adds the host's).
      hardwareConcurrency: navigator.hardwareConcurrency,
    },
    ...suite,
  };
}

// The cores table (bench/cores.mjs): onnxruntime-web with `ortThreads` threads, which must be
// set before its first session, so each value gets a page of its own. More than one thread
// needs the page to be cross-origin isolated (COOP/COEP headers); our pool does not.
async function cores({ quick, ortThreads }) {
  const log = (line) => console.log(`[bench cores chromium] ${line}`);
  ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';
  const { relaxedSimd, ...suite } = await runCores({
    ours: await import(oursUrl),
    ort,
    onnxProto,
    ortThreads,
    quick,
    log,
  });
  return {
    environment: {
      kind: 'chromium',
      relaxedSimd,
      crossOriginIsolated: self.crossOriginIsolated,
      ortThreads,
      userAgent: navigator.userAgent,
    },
    ...suite,
  };
}

// The decode table: ours resident, ours through onnxAttention, onnxruntime-web at one thread
// (this page is not cross-origin isolated, so one thread is all ORT gets here, as on most
// sites), and the bandwidth probe.
async function runDecode({ quick }) {
  const log = (line) => console.log(`[bench chromium] ${line}`);
  ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';
  ort.env.wasm.numThreads = 1;
  const { default: createAttention } = await import(oursUrl);
  const attn = await createAttention();
  const { instance: bandwidth } = await WebAssembly.instantiateStreaming(
    fetch('/build/bench/bandwidth.wasm'),
    {},
  );
  const suite = await runDecodeBench({
    attn,
    ort,
    onnxProto,
    bandwidth,
    ortThreads: 1,
    quick,
    log,
  });
  return {
    environment: {
      kind: 'chromium',
      relaxedSimd: attn.relaxedSimd,
      crossOriginIsolated: self.crossOriginIsolated,
    },
    threads: 1,
    ...suite,
  };
}

// Where the time of a small call goes (bench/common/small-calls.mjs): the SIMD128 build's glue
// is bundled in here, so that the raw module under attention() can be timed stage by stage.
async function smallCalls({ quick }) {
  const log = (line) => console.log(`[bench small calls] ${line}`);
  const Module = await createAttentionModule({ locateFile: () => '/dist/attention.wasm' });
  const results = smallCallBreakdown({ attn: wrapModule(Module), Module, quick, log });
  // And the small-call table alone (scripts/bench runs it with the whole suite).
  ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';
  const { default: createAttention, hasRelaxedSimd } = await import(oursUrl);
  const attn = await createAttention({ relaxedSimd: false });
  const attnRelaxed = hasRelaxedSimd() ? await createAttention() : null;
  const ortContender = await onnxruntime(ort, onnxProto.onnx);
  const small = await runSmall({ attn, attnRelaxed, ortContender, quick, log });
  return { environment: { kind: 'chromium', userAgent: navigator.userAgent }, results, small };
}

/** tfjs-backend-wasm set up (at `threads` threads), and the peak probe's functions. */
async function tfjsAndPeak(threads = 1) {
  await useTfjsWasm(threads);
  return peakProbes((await peakInstance()).exports);
}

// attentionBackward against tfjs's tf.grads (bench/common/backward.mjs), both in the page.
async function backward({ quick }) {
  const log = (line) => console.log(`[bench backward chromium] ${line}`);
  const probes = await tfjsAndPeak();
  const { default: createAttention } = await import(oursUrl);
  const attn = await createAttention({ relaxedSimd: false });
  const clock = (work) => {
    const start = performance.now();
    work();
    return performance.now() - start;
  };
  const result = await runBackwardBench({ attn, tf, probes, clock, quick, log });
  return { environment: { kind: 'chromium', clock: 'wall time' }, ...result };
}

// A training step, ours in a Worker against tfjs in the page (bench/browser/train.mjs). With
// `threads` above 1 (a cross-origin isolated page: bench/run-browser-page.mjs --isolated), ours
// is the wasm threads build in the Worker and tfjs its threaded build, each at that count, and
// ours is not timed on the page's thread (the threads build waits for its helpers there).
async function train({ quick, threads = 1 }) {
  const log = (line) => console.log(`[bench train chromium] ${line}`);
  if (threads > 1 && !self.crossOriginIsolated) {
    throw new Error(`train: ${threads} threads need a cross-origin isolated page`);
  }
  const probes = await tfjsAndPeak(threads);
  const { default: createAttention } = await import(oursUrl);
  const attn = threads === 1 ? await createAttention({ relaxedSimd: false }) : null;
  const workerUrl = '/build/bench/train-worker.js';
  const result = await runTrainBench({ tf, attn, probes, quick, log, workerUrl, threads });
  const tfjsThreads = tfWasm.getThreadsCount();
  // Each against the probe times its threads (the probe runs on one core).
  for (const row of result.results) {
    row.ours.share /= threads;
    row.tfjs.share /= tfjsThreads;
  }
  const environment = {
    kind: 'chromium',
    ours: 'in a Worker',
    crossOriginIsolated: self.crossOriginIsolated,
    // What tfjs-backend-wasm's own check says of threads here, and the count it then runs.
    tfjsThreadsSupported: await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'),
    threads: { ours: threads, tfjs: tfjsThreads },
  };
  return { environment, ...result };
}

// The text section: TEXT_MODEL on the poems and the English text, trained through
// createTrainer (its Worker) as chapter 4 trains, and a step against tfjs-wasm in the page
// (bench/browser/text.mjs). One thread: this page is not cross-origin isolated.
async function text({ quick }) {
  const log = (line) => console.log(`[bench text chromium] ${line}`);
  await useTfjsWasm(1);
  const lib = await import(oursUrl);
  const attn = await lib.default({ relaxedSimd: false });
  const result = await runTextBench({ lib, attn, tf, quick, log });
  const environment = {
    kind: 'chromium',
    clock: 'wall time',
    trainer: 'createTrainer, in its Worker',
    crossOriginIsolated: self.crossOriginIsolated,
  };
  return { environment, ...result };
}

window.bench = { run, cores, runDecode, smallCalls, backward, train, text };
window.benchReady = true;
