// Tiny WebAssembly modules that tell which SIMD an engine compiles. Each holds one function
// () -> v128 that builds v128 constants and combines them with one instruction: SIMD128
// (f32x4.add), which every engine the page supports validates, or relaxed SIMD
// (f32x4.relaxed_madd, final opcode 0xfd 0x85 0x02), which WebKit rejects. So a relaxed-SIMD
// build of the module must be chosen with WebAssembly.validate, falling back to SIMD128.

const V128_CONST = [0xfd, 0x0c, ...new Array(16).fill(0)];
const F32X4_ADD = [0xfd, 0xe4, 0x01];
const F32X4_RELAXED_MADD = [0xfd, 0x85, 0x02];
const END = 0x0b;

/**
 * A module of one function whose body is `instructions`, as byte values. Every size here is
 * below 128, so each fits the one byte its LEB128 encoding then takes.
 */
function moduleWith(instructions) {
  const body = [0x00, ...instructions, END]; // no locals
  const section = (id, contents) => [id, contents.length, ...contents];
  return [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(0x01, [0x01, 0x60, 0x00, 0x01, 0x7b]), // one type: () -> v128
    ...section(0x03, [0x01, 0x00]), // one function of type 0
    ...section(0x0a, [0x01, body.length, ...body]), // its code
  ];
}

/** v128.const ×2 and f32x4.add (a + b). */
export const SIMD128_MODULE = moduleWith([...V128_CONST, ...V128_CONST, ...F32X4_ADD]);

/** v128.const ×3 and f32x4.relaxed_madd (a * b + c). */
export const RELAXED_SIMD_MODULE = moduleWith([
  ...V128_CONST,
  ...V128_CONST,
  ...V128_CONST,
  ...F32X4_RELAXED_MADD,
]);

/** A module that is not valid in any engine (f32x4.add with one operand), a control. */
export const INVALID_MODULE = moduleWith([...V128_CONST, ...F32X4_ADD]);
