// The host's CPU as the report names it. Node reads it (a page cannot see its CPU's model, so
// for Chromium the Node process that starts it reads it on the same host): /proc/cpuinfo's
// first "model name", and which of the vector extensions the peak probes depend on its flags
// list (fma: whether an FMA can issue as one instruction); os.cpus()'s model where there is
// no /proc/cpuinfo.
import { readFileSync } from 'node:fs';
import os from 'node:os';

const VECTOR_FLAGS = ['sse4_1', 'avx', 'avx2', 'fma', 'avx512f'];

/** { cpu, cpuSource, cpuFlags? } for an environment's JSON. */
export function hostCpu() {
  let text = '';
  try {
    text = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    // not Linux: os.cpus() below
  }
  const model = /^model name\s*:\s*(.*)$/m.exec(text)?.[1].trim();
  if (!model) return { cpu: os.cpus()[0]?.model ?? 'unknown', cpuSource: 'os.cpus()' };
  const flags = new Set((/^flags\s*:\s*(.*)$/m.exec(text)?.[1] ?? '').split(/\s+/));
  return {
    cpu: model,
    cpuSource: '/proc/cpuinfo',
    cpuFlags: VECTOR_FLAGS.filter((flag) => flags.has(flag)),
  };
}
