// The Chromium half of scripts/bench, bundled with esbuild (tfjs and onnxruntime-web import
// bare package names). Loads every contender over HTTP from the repository root the static
// server exposes, and waits for bench/run-browser-page.mjs to call window.bench.run(settings).
import * as ort from 'onnxruntime-web/wasm';
import onnxProto from 'onnx-proto';
import * as tf from '@tensorflow/tfjs-core';
import * as tfWasm from '@tensorflow/tfjs-backend-wasm';

import createAttentionModule from '../../build/wasm/attention.mjs';
import { wrapModule } from '../../src/js/api.mjs';
import { runDecodeBench } from '../common/decode.mjs';
import { runBench, runCores, runSmall } from '../common/harness.mjs';
import { onnxruntime } from '../common/contenders.mjs';
import { smallCallBreakdown } from '../common/small-calls.mjs';

// Our module exactly as shipped: dist/attention.mjs finds attention.wasm next to itself. The
// specifier is a variable so that esbuild leaves this import to the browser.
const oursUrl = '/dist/attention.mjs';

async function run({ quick }) {
  const log = (line) => console.log(`[bench chromium] ${line}`);
  // Peers' wasm files from their own dist/ folders; one thread each.
  ort.env.wasm.wasmPaths = '/node_modules/onnxruntime-web/dist/';
  tfWasm.setWasmPaths('/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
  tfWasm.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');

  const { default: createAttention, hasRelaxedSimd } = await import(oursUrl);
  const attn = await createAttention({ relaxedSimd: false });
  const attnRelaxed = hasRelaxedSimd() ? await createAttention() : null;
  const { instance: peak } = await WebAssembly.instantiateStreaming(
    fetch('/build/bench/simd_peak.wasm'),
    {},
  );

  const suite = await runBench({ attn, attnRelaxed, ort, onnxProto, tf, peak, quick, log });
  return {
    environment: {
      kind: 'chromium',
      simd: attn.simd,
      relaxedSimd: Boolean(attnRelaxed),
      version: attn.version,
      crossOriginIsolated: self.crossOriginIsolated,
      userAgent: navigator.userAgent,
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
  const { default: createAttention, createAttentionPool } = await import(oursUrl);
  const attn = await createAttention();
  const pools = {
    1: await createAttentionPool({ workers: 1 }),
    2: await createAttentionPool({ workers: 2 }),
  };
  try {
    const suite = await runCores({ attn, pools, ort, onnxProto, ortThreads, quick, log });
    return {
      environment: {
        kind: 'chromium',
        relaxedSimd: attn.relaxedSimd,
        crossOriginIsolated: self.crossOriginIsolated,
        ortThreads,
        userAgent: navigator.userAgent,
      },
      ...suite,
    };
  } finally {
    pools[1].close();
    pools[2].close();
  }
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

window.bench = { run, cores, runDecode, smallCalls };
window.benchReady = true;
