// The cores table (bench/cores.mjs): per environment, the run with onnxruntime-web at 1
// thread and the one at 2 threads; ours in both, each ratio from one run's rounds.
import { cell, okMs, over, table } from './format.mjs';

/** The run of `cores` for an environment kind and ORT thread count, if it ran. */
export const coresRun = (cores, kind, ortThreads) =>
  cores?.runs.find((r) => r.environment.kind === kind && r.environment.ortThreads === ortThreads);

/** A contender's ms in the case of `run` with the shape of case c. */
export const msInRun = (run, c, name) =>
  okMs(run.cases.find((x) => x.n === c.n && x.heads === c.heads)?.results[name]);

export function coresSection(cores) {
  if (!cores) return [];
  const lines = [
    `### Cores: our pool against onnxruntime-web's threads (${cores.cpus} vCPUs, unpinned)`,
    '',
    'Ours: the build each engine loads by default (Relaxed SIMD in Chromium and in Node with ' +
      'its flag), on the calling thread and through createAttentionPool with 1 and 2 workers. ' +
      'onnxruntime-web fixes its thread count per process or page, so each count ran in its ' +
      'own (Chromium pages cross-origin isolated for its threads); the ours columns come from ' +
      'the 1-thread run, and each ratio compares numbers of the same run. Also our module on 2 ' +
      'wasm threads, createAttention({ threads: 2 }): each call on the calling thread and one ' +
      'helper sharing its memory (Node; the cross-origin isolated page). At 2 threads ' +
      "onnxruntime-web's threads spin for about 20 ms after each run (measured), so each of its " +
      'samples is followed by a 50 ms pause before the next contender, which would otherwise ' +
      'share the cores with them. ms/call · GFLOP/s.',
    '',
  ];
  for (const kind of ['node', 'chromium']) {
    const one = coresRun(cores, kind, 1);
    const two = coresRun(cores, kind, 2);
    if (!one || !two) continue;
    lines.push(
      `**${one.environment.name}** (relaxed SIMD: ${one.environment.relaxedSimd}` +
        (kind === 'chromium'
          ? `, cross-origin isolated: ${two.environment.crossOriginIsolated}`
          : '') +
        ')',
      '',
      table(
        ['N', 'heads', 'ours, 1 thread', 'pool, 1 worker', 'pool, 2 workers', '2 workers ÷ 1 thread',
          'ours, 2 wasm threads', 'ORT 1 thread', 'ORT 2 threads', 'pool 2 ÷ ORT 1t',
          'pool 2 ÷ ORT 2t', '2 wasm threads ÷ ORT 2t'],
        ['--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:', '--:'],
        one.cases.map((c) => [
          c.n, c.heads, cell(c.results.ours), cell(c.results.pool1), cell(c.results.pool2),
          over(msInRun(one, c, 'ours'), msInRun(one, c, 'pool2')),
          cell(c.results.threads2),
          cell(c.results.ort),
          cell(two.cases.find((x) => x.n === c.n && x.heads === c.heads)?.results.ort),
          over(msInRun(one, c, 'ort'), msInRun(one, c, 'pool2')),
          over(msInRun(two, c, 'ort'), msInRun(two, c, 'pool2')),
          over(msInRun(two, c, 'ort'), msInRun(two, c, 'threads2')),
        ]),
      ), // prettier-ignore
      '',
    );
  }
  return lines;
}
