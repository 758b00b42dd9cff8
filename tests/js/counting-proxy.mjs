// Proves an entry point reads each argument once: a Proxy that counts every property read.
import assert from 'node:assert/strict';

/** `value` behind Proxies that count, in `counts`, each read by its path ('.x.0.1'). */
export function countingProxy(value, counts, path = '') {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const where = `${path}.${String(key)}`;
      counts.set(where, (counts.get(where) ?? 0) + 1);
      return countingProxy(Reflect.get(target, key, receiver), counts, where);
    },
  });
}

/** Every path in `counts` read exactly once, and at least one read. */
export function assertEachReadOnce(counts, label) {
  const twice = [...counts].filter(([, n]) => n > 1);
  assert.deepEqual(twice, [], `${label}: read more than once`);
  assert.ok(counts.size > 0, `${label}: nothing was read through the proxy`);
}
