// What the hostile tests of the ONNX operators check on each refused call.
import assert from 'node:assert/strict';

/**
 * Whether `message` names `name` as a whole identifier: `input` in "input.dims[0] must be" but
 * not in "inputs"; the list of allowed keys in an "unknown option" message does not count.
 */
export const namesIt = (message, name) =>
  new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`).test(
    message.replace(/\(expected one of [^)]*\)/, ''),
  );

/**
 * Asserts that `call` throws an `ErrorType` naming `name`, and that the instance holds no more
 * memory than `baseline` afterwards (a refused call leaks nothing).
 */
export function assertRefuses(attn, baseline, call, ErrorType, name) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof ErrorType, `${error.constructor.name}: ${error.message}`);
    assert.ok(namesIt(error.message, name), `"${error.message}" does not name ${name}`);
    return true;
  });
  assert.equal(attn.memoryStats().allocatedBytes, baseline, 'leaked');
}
