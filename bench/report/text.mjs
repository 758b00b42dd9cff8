// The text section, from the JSON of bench/text-node.mjs and of the Chromium run
// (bench/browser/text.mjs): for each, the loss against time and steps for both texts, the poems'
// 5/7 line share after a minute and with the snapshot, English bits per character, and ms per
// step of ours against tfjs-wasm; then the issue's targets, checked on the Chromium run.
// bench/report.mjs appends it to the whole report; run alone (scripts/bench --text-only) it
// prints it:
//   node bench/report/text.mjs --text text-node.json [--text text-chromium.json] [--out FILE.md]
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { pct, ratio, table } from './format.mjs';
import { targetsTable } from './targets.mjs';

const nats = (x) => x.toFixed(3);
const bits = (x) => (x / Math.LN2).toFixed(3);
const share = (verse) =>
  verse ? `${pct(verse.share)} (${verse.fiveOrSeven}/${verse.lines})` : '—';
const speed = (ms) => `${ms.toFixed(1)} ms · ${(1000 / ms).toFixed(1)} steps/s`;

/** Characters of a check's sample the report shows (the JSON keeps SAMPLE_KEPT). */
const SAMPLE_SHOWN = 48;
/** A sample as a table cell: its first characters, each run of line breaks as " / ". */
const sampleCell = (sample) =>
  [...sample.trim().replace(/\n+/g, ' / ')].slice(0, SAMPLE_SHOWN).join('').replaceAll('|', '\\|');

/** The targets "Done means" sets, for a minute of training in Chromium. */
export const TEXT_TARGETS = { seconds: 60, verseShare: 0.9, englishNats: 1.6 };

/** How the run trained, by where it ran (its JSON's environment.kind). */
const HOW_TRAINED = {
  node: 'in this thread, counting the CPU time of its steps (examples/node/text-minute.mjs)',
  chromium:
    'as chapter 4 of the page trains it: through createTrainer in its Worker (the bench page ' +
    'is not cross-origin isolated: one thread), counting the wall time while it ran, paused ' +
    'at each check while a copy of its parameters is scored in the page (bench/browser/text.mjs)',
};

/** The section's markdown lines for one run ({ environment, results }). */
function runSection({ results, environment }) {
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
    const perSecond = (last.step / last.seconds).toFixed(1);
    return [
      [`${text}, ${seconds} s from scratch`, curve.steps, perSecond, nats(last.loss), bits(last.loss), share(last.verse), '—'],
      [`${text}, snapshot`, snapshot.steps, '—', nats(snapshot.loss), bits(snapshot.loss), share(snapshot.verse), snapshot.bytes.toLocaleString('en-US')],
    ]; // prettier-ignore
  });
  // Each check's sample (JSON of older runs has none).
  const sampleRows = results.flatMap(({ text, curve }) =>
    curve.points
      .filter((p) => typeof p.sample === 'string')
      .map((p) => [text, p.seconds.toFixed(0), sampleCell(p.sample)]),
  );
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
      `trained for ${seconds} s of ${environment.clock} ${HOW_TRAINED[environment.kind]}; ` +
      'held-out loss on the last tenth of the text (never trained on), in nats and bits per ' +
      'character; for the poems, the share of lines with five or seven characters between ' +
      'punctuation marks in 2,000 characters generated with TEXT_SAMPLING ' +
      '(bench/common/text-bench.mjs).',
    '',
    table(
      ['text', `${environment.clock} s`, 'steps', 'held-out nats/char', 'bits/char', 'accuracy', '5/7 lines'],
      ['---', '--:', '--:', '--:', '--:', '--:', '--:'],
      curveRows,
    ), // prettier-ignore
    '',
    ...(sampleRows.length
      ? [
          'What the model writes at each check (the start of its sample, after the held-out ' +
            "tenth's first line; line breaks as /):",
          '',
          table(['text', `${environment.clock} s`, 'sample'], ['---', '--:', '---'], sampleRows),
          '',
        ]
      : []),
    `${seconds} s from scratch (steps per second of ${environment.clock} while training) ` +
      'against the snapshot the page opens with (web/snapshots/, trained longer by ' +
      'scripts/train-snapshots.mjs), measured the same way:',
    '',
    table(
      ['model', 'steps', 'steps/s', 'held-out nats/char', 'bits/char', '5/7 lines', 'snapshot bytes'],
      ['---', '--:', '--:', '--:', '--:', '--:', '--:'],
      endRows,
    ), // prettier-ignore
    '',
    "ms per trainStep in one thread (in Chromium: the page's), median of interleaved rounds " +
      'on the same batches of the text task; tfjs-backend-wasm (1 thread) has learned ' +
      'positions only, so both run TEXT_MODEL with learned positions; the last column is ours ' +
      'as TEXT_MODEL is (RoPE). Wall time.',
    '',
    table(
      ['text', 'batch × T', 'ours (learned)', 'tfjs-wasm (learned)', 'tfjs ÷ ours', 'ours (RoPE)'],
      ['---', '--:', '--:', '--:', '--:', '--:'],
      stepRows,
    ), // prettier-ignore
    '',
  ];
}

/**
 * The issue's targets, checked on one Chromium run: [target, measured, met] rows. A run
 * shorter than TEXT_TARGETS.seconds (--quick) is checked all the same and says so.
 */
export function textTargetRows({ results }) {
  const byText = Object.fromEntries(results.map((r) => [r.text, r]));
  const { seconds } = results[0].budget;
  const after = `after ${seconds} s from scratch` +
    (seconds < TEXT_TARGETS.seconds ? ` (a short run: the target is for ${TEXT_TARGETS.seconds} s)` : ''); // prettier-ignore
  const met = (ok, why) => (ok ? 'yes' : `**no**${why ? `: ${why}` : ''}`);
  const rows = [];
  const poems = byText.poems;
  if (poems) {
    const verse = poems.curve.points.at(-1).verse;
    rows.push([
      `poems: ≥ ${pct(TEXT_TARGETS.verseShare)} of generated lines with 5 or 7 characters, ${after}`,
      share(verse),
      met(verse.share >= TEXT_TARGETS.verseShare),
    ]);
  }
  const english = byText.english;
  if (english) {
    const { loss } = english.curve.points.at(-1);
    rows.push([
      `english: held-out loss ≤ ${TEXT_TARGETS.englishNats} nats/char, ${after}`,
      `${nats(loss)} nats/char (${bits(loss)} bits)`,
      met(loss <= TEXT_TARGETS.englishNats),
    ]);
  }
  for (const { text, verse, curve, snapshot } of results) {
    const last = curve.points.at(-1);
    const lossBetter = last.loss - snapshot.loss;
    const parts = [`held-out ${nats(snapshot.loss)} against ${nats(last.loss)} nats/char (${lossBetter >= 0 ? 'lower' : 'higher'} by ${nats(Math.abs(lossBetter))})`]; // prettier-ignore
    let better = lossBetter > 0;
    if (verse) {
      const points = snapshot.verse.share - last.verse.share;
      parts.push(`5/7 lines ${pct(snapshot.verse.share)} against ${pct(last.verse.share)} (${points >= 0 ? '+' : '−'}${(100 * Math.abs(points)).toFixed(0)} points)`); // prettier-ignore
      better &&= points >= 0;
    }
    rows.push([`${text}: the snapshot does better than ${seconds} s from scratch`, parts.join('; '), met(better)]); // prettier-ignore
  }
  return rows;
}

/**
 * The section's markdown lines for the runs given (each { environment, results }; missing
 * ones left out): one part per run, then the targets on the Chromium run. [] without a run.
 */
export function textSection(runs) {
  const present = runs.filter(Boolean);
  if (present.length === 0) return [];
  const chromium = present.find((run) => run.environment.kind === 'chromium');
  const targets = chromium
    ? targetsTable(
        `Targets: a minute of text training in Chromium, in this run (${chromium.environment.name})`,
        textTargetRows(chromium),
      )
    : [];
  return [...present.flatMap(runSection), ...targets];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { text: { type: 'string', multiple: true, default: [] }, out: { type: 'string' } },
  });
  const runs = await Promise.all(
    values.text.map(async (file) => JSON.parse(await readFile(file, 'utf8'))),
  );
  const markdown = textSection(runs).join('\n');
  process.stdout.write(`${markdown}\n`);
  if (values.out) await writeFile(values.out, `${markdown}\n`);
}
