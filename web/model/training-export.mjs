// Chapter 3's training as files: the loss curve as CSV, and the trained parameters as JSON
// that the page reads back (a file chosen in the train stage) and that the package's
// loadParameters() takes as it is (its `parameters` field). No DOM.
import { TRAINING_DEFAULTS, trainingSettingsProblem } from './training.mjs';

/** Marks the page's parameter files (and their layout's version). */
export const PARAMETERS_FORMAT = 'attention-explained/tiny-transformer@1';
/**
 * The most steps a file or link may say its model was trained for: a run stops at 2,000 and a
 * loaded model trains on from its step, so far more than any reader reaches, and far less
 * than "1e+300 steps".
 */
export const MAX_TRAINED_STEPS = 1_000_000_000;

/** "step,loss" and one line per step, losses as their float32 values print. */
export function lossCsv(losses) {
  return ['step,loss', ...Array.from(losses, (loss, s) => `${s + 1},${loss}`)].join('\n') + '\n';
}

/** The JSON file of a trained model: its switches, its step and every parameter. */
export function parametersJson({ settings, step, parameters }) {
  const { positions, layers, heads, seed } = settings;
  return JSON.stringify(
    { format: PARAMETERS_FORMAT, settings: { positions, layers, heads, seed }, step, parameters },
    (key, value) => (ArrayBuffer.isView(value) ? Array.from(value) : value),
  );
}

const refuse = (Kind, message) => {
  throw new Kind(`parameters file: ${message}`);
};

/**
 * Reads a parameters file back: { settings, step, parameters }. Throws a TypeError or
 * RangeError naming what is wrong; the parameters' names and sizes are the model's to check
 * (loadParameters refuses the whole set, changing nothing).
 */
export function readParametersJson(text) {
  let file;
  try {
    file = JSON.parse(text);
  } catch (error) {
    refuse(TypeError, `expected JSON, got text that does not parse (${error.message})`);
  }
  return readParameters(file);
}

/** The checks of readParametersJson on the parsed object (a file's, or a link's). */
export function readParameters(file) {
  if (file === null || typeof file !== 'object' || file.format !== PARAMETERS_FORMAT) {
    refuse(
      TypeError,
      `expected format "${PARAMETERS_FORMAT}", got ${JSON.stringify(file?.format)}`,
    );
  }
  const { step, parameters } = file;
  // A file has no speed: the page's default completes its switches.
  const { positions, layers, heads, seed } = file.settings ?? {};
  const settings = { ...TRAINING_DEFAULTS, positions, layers, heads, seed };
  const problem = trainingSettingsProblem(settings);
  if (problem) refuse(RangeError, `settings.${problem.text}`);
  if (!Number.isInteger(step) || step < 0 || step > MAX_TRAINED_STEPS) {
    refuse(
      RangeError,
      `step must be a whole number from 0 to ${MAX_TRAINED_STEPS}, got ${JSON.stringify(step)}`,
    );
  }
  if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) {
    refuse(TypeError, 'parameters must be an object { name: { data, dims } }');
  }
  return { settings, step, parameters };
}
