// ONNX's own test cases for the Attention operator (their shapes, types, attributes and
// outputs; the data is ours), from the one list both test suites read:
// tests/data/onnx-attention-cases.json (the native suite reads it in onnx_cases_test.cpp).
// Each case: { name, opset, inputs: { NAME: { dims, type } }, nonpad?, attributes, outputs }.
import { readFileSync } from 'node:fs';

const file = new URL('../data/onnx-attention-cases.json', import.meta.url);

export const ONNX_CASES = JSON.parse(readFileSync(file, 'utf8')).cases;
