// The TensorFlow.js that bench/backward-node.mjs compares against, bundled by scripts/bench:
// tfjs-core with every gradient registered (its Node entry registers none, and the files
// that do are ES modules Node cannot load unbundled), and the wasm backend.
export * as tf from '@tensorflow/tfjs-core';
export * as tfWasm from '@tensorflow/tfjs-backend-wasm';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
