// The benchmark's text section (bench/report/text.mjs), from runs shaped as bench/text-node.mjs
// and bench/browser/text.mjs write them: each run under its own environment's heading, and the
// issue's targets (a minute in Chromium: 90% of verse lines of 5 or 7 characters, English at
// most 1.6 nats per character, the snapshots better) checked on the Chromium run alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { textSection, textTargetRows } from '../../bench/report/text.mjs';

/** A run of both texts: the poems' last 5/7 share and the English text's last loss given. */
function run(kind, { verseShare, englishLoss, seconds = 60 }) {
  const budget = { seconds, checks: 2 };
  const steps = { config: { vocabSize: 63, context: 32 }, batch: 8, ms: { ours: 12, tfjs: 130, oursRope: 12.5 } }; // prettier-ignore
  const verse = (share) => ({ lines: 200, fiveOrSeven: Math.round(200 * share), share });
  const point = (s, loss, share) => ({ seconds: s, step: 40 * s, loss, accuracy: 0.5, verse: share === undefined ? null : verse(share) }); // prettier-ignore
  return {
    environment: {
      kind,
      name: kind === 'node' ? 'Node 20' : 'Chromium 140, headless',
      clock: kind === 'node' ? 'CPU time' : 'wall time',
    },
    results: [
      {
        text: 'poems',
        verse: true,
        budget,
        curve: { steps: 2400, points: [point(30, 5.5, 0.5), point(seconds, 5.2, verseShare)] },
        snapshot: { steps: 500, bytes: 727296, loss: 5.1, accuracy: 0.25, verse: verse(0.97) },
        steps,
      },
      {
        text: 'english',
        verse: false,
        budget,
        curve: { steps: 3600, points: [point(30, 1.8), point(seconds, englishLoss)] },
        snapshot: { steps: 6500, bytes: 414208, loss: 1.3, accuracy: 0.6, verse: null },
        steps,
      },
    ],
  };
}

test('each run is shown under its own environment, the targets only for Chromium', () => {
  const node = run('node', { verseShare: 0.8, englishLoss: 1.7 });
  const chromium = run('chromium', { verseShare: 0.95, englishLoss: 1.5 });
  const both = textSection([node, chromium]).join('\n');
  assert.match(both, /### Text: .*\(Node 20, one core\)/);
  assert.match(both, /### Text: .*\(Chromium 140, headless, one core\)/);
  assert.match(both, /\| wall time s \|/);
  assert.match(both, /### Targets: a minute of text training in Chromium/);
  assert.doesNotMatch(textSection([node, null]).join('\n'), /Targets/);
  assert.deepEqual(textSection([null]), []);
  // Each check's sample, its line breaks as " / " and a "|" kept out of the table's cells.
  assert.doesNotMatch(both, /What the model writes/);
  node.results[0].curve.points[1].sample = '\n床前明月光，\n\n疑是|地上霜。\n';
  assert.match(
    textSection([node]).join('\n'),
    /\| poems \| 60 \| 床前明月光， \/ 疑是\\\|地上霜。 \|/,
  );
});

test('the targets say met or not from the last check of the Chromium run', () => {
  const met = textTargetRows(run('chromium', { verseShare: 0.95, englishLoss: 1.5 }));
  assert.deepEqual(
    met.map((row) => row[2]),
    ['yes', 'yes', 'yes', 'yes'],
  );
  assert.match(met[0][1], /^95% \(190\/200\)$/);
  assert.match(met[2][1], /5\/7 lines 97% against 95% \(\+2 points\)/);

  const missed = textTargetRows(run('chromium', { verseShare: 0.85, englishLoss: 1.65 }));
  assert.deepEqual(
    missed.map((row) => row[2].startsWith('**no**')),
    [true, true, false, false],
  );
  // A snapshot worse than a minute from scratch is a miss, and says by how much.
  const worse = textTargetRows(run('chromium', { verseShare: 0.99, englishLoss: 1.2 }));
  assert.deepEqual(
    worse.slice(2).map((row) => row[2].startsWith('**no**')),
    [true, true],
  );
  assert.match(worse[3][1], /higher by 0\.100/);
  // A --quick run is checked at its own length and says the target is for 60 s.
  const quick = textTargetRows(
    run('chromium', { verseShare: 0.95, englishLoss: 1.5, seconds: 20 }),
  );
  assert.match(quick[0][0], /after 20 s from scratch \(a short run: the target is for 60 s\)/);
});
