// The entry of a step that is a family of its own with no parameters (a stage of one step, or
// one of a stage's steps that share nothing but their stage): its id names its family too,
// and its title is one key of the stage's text.

/**
 * @param {{ id: string, titleKey: string, duration: number, build: Function }} step and any
 *   other field of a step (questions)
 * @returns the step's entry, as a stage's steps() returns it (stages/index.mjs)
 */
export const singleStep = ({ id, titleKey, duration, build, ...more }) => ({
  id,
  family: id,
  params: {},
  duration,
  title: (tr) => tr(titleKey),
  build,
  ...more,
});
