// The tests' and the bench's seeded generator: the package's own (mulberry32), so a test's
// inputs and the induction task's batches come from one definition.
export { seededRandom } from '../../src/js/tasks/seeded-random.mjs';
