// Reading a WebAssembly binary (version 1) the way an engine does: bytes and unsigned LEB128
// numbers within bounds, the sections one after another, and the code section's function
// bodies. The build's opcode rewrite (relaxed-simd.mjs) decodes each body with it; the test
// that bounds the built modules' function sizes (tests/js/function-sizes.test.mjs) measures
// them. Anything out of bounds is an error naming its reader (`who`) and the byte, never a guess.

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const CODE_SECTION = 10;

/** A cursor over bytes [pos, end) of `bytes`; its errors start with `who`. */
export class Reader {
  constructor(bytes, pos, end, who) {
    this.bytes = bytes;
    this.pos = pos;
    this.end = end;
    this.who = who;
  }
  fail(what) {
    throw new Error(`${this.who}: ${what} at byte ${this.pos}`);
  }
  byte() {
    if (this.pos >= this.end) this.fail('unexpected end');
    return this.bytes[this.pos++];
  }
  skip(count) {
    if (this.pos + count > this.end) this.fail('unexpected end');
    this.pos += count;
  }
  // Unsigned LEB128 of at most maxBytes bytes: its value (exact up to 2^53).
  uleb(maxBytes = 5) {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < maxBytes; i++) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return value;
      scale *= 128;
    }
    return this.fail('LEB128 too long');
  }
  // Any LEB128 (signed or not) of at most maxBytes bytes, skipped.
  skipLeb(maxBytes) {
    for (let i = 0; i < maxBytes; i++) if ((this.byte() & 0x80) === 0) return;
    this.fail('LEB128 too long');
  }
}

/**
 * Calls visit(body, k) for the code section's function bodies in order: `body` a Reader over
 * body k's bytes (its locals, then its instructions), k counted from 0 within the code section
 * (a function's index is the module's imported functions plus k). `who` names the caller in
 * errors: bytes that are not a module, or that end before a size they declare.
 */
export function eachCodeBody(bytes, who, visit) {
  if (bytes.length < HEADER.length || HEADER.some((b, i) => bytes[i] !== b)) {
    throw new Error(`${who}: not a WebAssembly module (version 1)`);
  }
  const top = new Reader(bytes, HEADER.length, bytes.length, who);
  while (top.pos < bytes.length) {
    const id = top.byte();
    const size = top.uleb();
    const start = top.pos;
    top.skip(size);
    if (id !== CODE_SECTION) continue;
    const section = new Reader(bytes, start, start + size, who);
    const bodies = section.uleb();
    for (let k = 0; k < bodies; k++) {
      const bodySize = section.uleb();
      visit(new Reader(bytes, section.pos, section.pos + bodySize, who), k);
      section.skip(bodySize);
    }
    if (section.pos !== section.end) section.fail('code section ends before its declared size');
  }
}
