// Chapter 3's training model code in Node (web/model/training.mjs): reading a typed sequence,
// finding the step where the loss dropped, and scoring what a head does; and its files
// (web/model/training-export.mjs): the loss as CSV, the parameters as JSON and back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  findDrop,
  headRoles,
  inductionScore,
  parseLetters,
  previousTokenScore,
} from '../../web/model/training.mjs';
import {
  PARAMETERS_FORMAT,
  lossCsv,
  parametersJson,
  readParametersJson,
} from '../../web/model/training-export.mjs';

describe('the chapter model (Node)', () => {
  test('parseLetters takes A..O with or without spaces, and names what it refuses', () => {
    assert.deepEqual(parseLetters('A B C d').tokens, [0, 1, 2, 3, 4]);
    assert.deepEqual(parseLetters('abca').tokens, [0, 1, 2, 3, 1]);
    assert.equal(parseLetters('A Z').error.params.letter, 'Z');
    assert.equal(parseLetters('  ').error.key, 'ch3.heads.emptyInput');
    assert.equal(parseLetters('A'.repeat(25)).error.params.most, 24);
  });
  test('findDrop: nothing on a plateau; the step where the smoothed loss halves', () => {
    const plateau = Array.from({ length: 600 }, (_, s) => (s < 100 ? 2.7 - s / 100 : 1.7));
    assert.equal(findDrop(plateau), null);
    const dropped = [...plateau, ...Array(100).fill(0.05)];
    // The 20-step mean falls below 0.85 once 11 low steps are in it.
    assert.equal(findDrop(dropped), 611);
  });
  test('head scores: a previous-token head and an induction head on A B C A B', () => {
    const tokens = [0, 1, 2, 3, 1, 2];
    const T = tokens.length;
    const previous = Array.from({ length: T }, (_, i) =>
      Array.from({ length: T }, (_, j) => (i === 0 ? Number(j === 0) : Number(j === i - 1))),
    );
    // The induction head: from each repeat, the token after the earlier copy (else BOS).
    const target = [0, 0, 0, 0, 2, 3];
    const induction = target.map((k) => Array.from({ length: T }, (_, j) => Number(j === k)));
    assert.equal(previousTokenScore(previous), 1);
    assert.equal(inductionScore(induction, tokens), 1);
    assert.equal(inductionScore(previous, tokens), 0);
    const data = new Float32Array([...previous.flat(), ...induction.flat()]);
    const roles = headRoles({ data, dims: [2, 1, 1, T, T] }, tokens);
    assert.equal(roles.previousHead.layer, 0);
    assert.equal(roles.inductionHead.layer, 1);
    assert.equal(roles.inductionHead.induction, 1);
  });
});

describe('the training files (Node)', () => {
  test('the loss CSV has one line per step', () => {
    assert.equal(lossCsv(Float32Array.of(2.5, 0.25)), 'step,loss\n1,2.5\n2,0.25\n');
  });
  test('a parameters file reads back: switches, step and every tensor as numbers', () => {
    const parameters = { unembedding: { data: Float32Array.of(0.5, -1), dims: [1, 2] } };
    const settings = { positions: 'learned', layers: 1, heads: 2, seed: 7, speed: 'slow' };
    const read = readParametersJson(parametersJson({ settings, step: 640, parameters }));
    assert.deepEqual(read.parameters, { unembedding: { data: [0.5, -1], dims: [1, 2] } });
    assert.equal(read.step, 640);
    assert.deepEqual(
      { ...read.settings, speed: undefined },
      { positions: 'learned', layers: 1, heads: 2, seed: 7, speed: undefined },
    );
  });
  test('a file that is not one names what is wrong', () => {
    assert.throws(() => readParametersJson('{'), /expected JSON/);
    assert.throws(() => readParametersJson('{"format":"x"}'), TypeError);
    const file = (settings) =>
      JSON.stringify({ format: PARAMETERS_FORMAT, settings, step: 1, parameters: {} });
    assert.throws(
      () => readParametersJson(file({ positions: 'rope', layers: 3, heads: 4, seed: 1 })),
      /settings\.layers must be one of 1, 2, got 3/,
    );
    assert.throws(
      () => readParametersJson(file({ positions: 'rope', layers: 2, heads: 4, seed: -1 })),
      RangeError,
    );
  });
});
