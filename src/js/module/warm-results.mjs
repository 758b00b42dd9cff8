// Keeping the pages of freed results warm in Node, so that a call without `out` does not fault
// its fresh result in page by page.
//
// Every call without `out` returns a fresh Float32Array the caller owns. In Node its memory
// comes from glibc's malloc (V8's ArrayBuffer allocator), and the results the caller dropped
// are freed only at the next garbage collection, many calls later. Until then each new result
// extends the heap (brk) into pages never touched, and when the collection frees them glibc
// hands every free page above its trim threshold back to the system: the next results fault
// them in again. Measured (Node 20, glibc 2.36, N = 256, 8 heads, D = 64: a 512 KiB result):
// 129 minor page faults per call, one per 4 KiB page of the result, and none with `out`.
// Emscripten's own allocator is not involved: wasm memory never gives pages back.
//
// glibc's trim threshold adapts: when a chunk that malloc mapped on its own (one larger than
// its mmap threshold) is freed, both thresholds rise to fit it, the trim threshold to twice
// its size, up to a chunk of 32 MiB on 64-bit systems (DEFAULT_MMAP_THRESHOLD_MAX). So one
// 31 MiB buffer, allocated and dropped as the module loads, makes glibc keep up to 62 MiB of
// freed heap in place: the results of the calls between two collections then reuse warm pages
// (0 to 2 faults per call, measured as above). That starts once the collector has freed the
// buffer and then the first results after it: about 100 calls of that size. It is not a
// guarantee: glibc still trims when one collection frees more than the 62 MiB at the top of
// its heap at once, which V8 (collecting after about 64 MiB of new ArrayBuffers) can reach;
// seen once in three runs at N = 512, 8 heads (1 MiB results, 258 faults per call). The buffer
// is never written, so it costs address space only, never memory; other C libraries ignore it.
// Browsers allocate ArrayBuffers with their own allocators: nothing is done there.
import { isNode } from '../shared/workers.mjs';

/** Just under glibc's largest chunk that still raises the thresholds (32 MiB on 64-bit). */
const THRESHOLD_RAISING_BYTES = 31 * 1024 * 1024;

let raised = false;

/** Once per thread, in Node: lets glibc keep freed results' pages (see above). */
export function keepFreedResultsWarm() {
  if (!isNode || raised) return;
  raised = true;
  // Dropped at once: glibc raises its thresholds when the collector frees it.
  void new ArrayBuffer(THRESHOLD_RAISING_BYTES);
}
