// Chapter 3's training model code in Node (web/model/training.mjs): reading a typed sequence,
// finding the step where the loss dropped, and scoring what a head does.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  findDrop,
  headRoles,
  inductionScore,
  parseLetters,
  previousTokenScore,
} from '../../web/model/training.mjs';

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
