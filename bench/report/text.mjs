// The text section, from the JSON of bench/text-node.mjs: the loss against time and steps for
// both texts, the poems' 5/7 line share after a minute and with the snapshot, English bits per
// character, and ms per step of ours against tfjs-wasm. bench/report.mjs appends it to the
// whole report; run alone (scripts/bench --text-only) it prints it:
//   node bench/report/text.mjs --text text-node.json [--out FILE.md]
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { pct, ratio, table } from './format.mjs';

const nats = (x) => x.toFixed(3);
const bits = (x) => (x / Math.LN2).toFixed(3);
const share = (verse) =>
  verse ? `${pct(verse.share)} (${verse.fiveOrSeven}/${verse.lines})` : '—';
const speed = (ms) => `${ms.toFixed(1)} ms · ${(1000 / ms).toFixed(1)} steps/s`;

/** The section's markdown lines for one run ({ environment, results }), or [] without one. */
export function textSection(run) {
  if (!run) return [];
  const { results, environment } = run;
  const { seconds } = results[0].budget;
  const curveRows = results.flatMap(({ text, curve }) =>
    curve.points.map((p) => [
      text,
      p.seconds.toFixed(0),
      p.step,
      nats(p.loss),
      bits(p.loss),
      pct(p.accuracy),
      share(p.verse),
    ]),
  );
  const endRows = results.flatMap(({ text, curve, snapshot }) => {
    const last = curve.points.at(-1);
    return [
      [`${text}, ${seconds} s from scratch`, curve.steps, nats(last.loss), bits(last.loss), share(last.verse), '—'],
      [`${text}, snapshot`, snapshot.steps, nats(snapshot.loss), bits(snapshot.loss), share(snapshot.verse), snapshot.bytes.toLocaleString('en-US')],
    ]; // prettier-ignore
  });
  const stepRows = results.map(({ text, steps: { config, batch, ms } }) => [
    `${text} (V ${config.vocabSize})`,
    `${batch} × ${config.context}`,
    speed(ms.ours),
    speed(ms.tfjs),
    ratio(ms.tfjs / ms.ours),
    speed(ms.oursRope),
  ]);
  return [
    `### Text: TEXT_MODEL on the Tang poems and the English text (${environment.name}, one core)`,
    '',
    `A fresh model per text (TEXT_MODEL, TEXT_TASK, batch ${results[0].steps.batch}, seed 1) ` +
      `trained for ${seconds} s of ${environment.clock} (bench/common/text-bench.mjs); ` +
      'held-out loss on the last tenth of the text (never trained on), in nats and bits per ' +
      'character; for the poems, the share of lines with five or seven characters between ' +
      'punctuation marks in 2,000 characters generated with TEXT_SAMPLING.',
    '',
    table(
      ['text', `${environment.clock} s`, 'steps', 'held-out nats/char', 'bits/char', 'accuracy', '5/7 lines'],
      ['---', '--:', '--:', '--:', '--:', '--:', '--:'],
      curveRows,
    ), // prettier-ignore
    '',
    'A minute from scratch against the snapshot the page opens with (web/snapshots/, trained ' +
      'longer by scripts/train-snapshots.mjs), measured the same way:',
    '',
    table(
      ['model', 'steps', 'held-out nats/char', 'bits/char', '5/7 lines', 'snapshot bytes'],
      ['---', '--:', '--:', '--:', '--:', '--:'],
      endRows,
    ),
    '',
    'ms per trainStep, median of interleaved rounds on the same batches of the text task; ' +
      'tfjs-backend-wasm (1 thread) has learned positions only, so both run TEXT_MODEL with ' +
      'learned positions; the last column is ours as TEXT_MODEL is (RoPE). Wall time.',
    '',
    table(
      ['text', 'batch × T', 'ours (learned)', 'tfjs-wasm (learned)', 'tfjs ÷ ours', 'ours (RoPE)'],
      ['---', '--:', '--:', '--:', '--:', '--:'],
      stepRows,
    ), // prettier-ignore
    '',
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { text: { type: 'string' }, out: { type: 'string' } } });
  const run = JSON.parse(await readFile(values.text, 'utf8'));
  const markdown = textSection(run).join('\n');
  process.stdout.write(`${markdown}\n`);
  if (values.out) await writeFile(values.out, `${markdown}\n`);
}
