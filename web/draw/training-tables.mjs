// The training run's numbers as tables, for the tables panel and "Your numbers" on the train
// stage: the loss every LOSS_EVERY steps (and the latest), and what each head does on the
// held-out row of its latest attention snapshot (the mean weight on the previous token, and
// on the token after the current token's earlier copy). Each view follows the run: it is
// drawn again when a checkpoint, a snapshot or the run's status comes, and stops following
// once it has left the page.
import { h } from '../dom.mjs';
import { oncePerFrame } from '../idle.mjs';
import { formatExact, formatLoss } from '../format.mjs';
import { runReading, tokenLabel } from '../model/training.mjs';
import { kindName } from './training-views.mjs';
import { matrixView } from './matrix-view.mjs';
import { ROLES } from '../roles.mjs';

/** Steps between the loss table's rows. */
export const LOSS_EVERY = 100;

/** The steps shown in the loss table: 1, 100, 200, … and the last one taken. */
function lossSteps(count) {
  const steps = count > 0 ? [1] : [];
  for (let s = LOSS_EVERY; s <= count; s += LOSS_EVERY) steps.push(s);
  if (count > 1 && steps.at(-1) !== count) steps.push(count);
  return steps;
}

function lossTable(run, tr) {
  const steps = lossSteps(run.losses.length);
  if (steps.length === 0) return h('p', { class: 'panel-intro', text: tr('ch3.tables.noSteps') });
  const before = run.loadedStep ?? 0; // a loaded model's steps come before the run's
  return matrixView({
    matrix: 'run-loss',
    role: ROLES.loss.role,
    symbol: ROLES.loss.symbol,
    name: tr('ch3.tables.loss'),
    rows: steps.length,
    cols: 1,
    rowLabels: steps.map((s) => String(before + s)),
    colLabels: [tr('ch3.tables.lossColumn')],
    text: (i) => formatLoss(run.losses[steps[i] - 1]),
    shape: '',
  }).element;
}

function headsTable(run, tr) {
  const reading = runReading(run);
  if (!reading) return h('p', { class: 'panel-intro', text: tr('ch3.tables.noHeads') });
  const heads = reading.heads;
  const columns = [
    (x) => formatExact(x.scores.previous),
    (x) => (x.scores.induction === null ? '–' : formatExact(x.scores.induction)),
    (x) => kindName(x, tr),
  ];
  const table = matrixView({
    matrix: 'run-heads',
    role: ROLES.weights.role,
    symbol: ROLES.weights.symbol,
    name: tr('ch3.tables.heads', { step: reading.step }),
    rows: heads.length,
    cols: columns.length,
    rowLabels: heads.map((x) => tr('ch3.train.headName', { layer: x.layer + 1, head: x.head + 1 })),
    colLabels: [tr('ch3.tables.previous'), tr('ch3.tables.induction'), tr('ch3.tables.reads')],
    text: (i, j) => columns[j](heads[i]),
    shape: '',
  }).element;
  // What the short headers and a "fixed token" stand for, under the table: the same two
  // paragraphs at every snapshot (a table of the same shape has only its texts changed), the
  // second hidden while no head reads as a fixed token.
  const fixed = heads.find(
    (x) => x.kind === 'fixed' || (x.kind === 'leans' && x.toward === 'fixed'),
  );
  const fixedNote = h('p', {
    class: 'run-table-note',
    text: tr('ch3.tables.fixedNote', { token: fixed ? tokenLabel(fixed.token) : '' }),
  });
  fixedNote.hidden = !fixed;
  return h(
    'div',
    {},
    table,
    h('p', { class: 'run-table-note', text: tr('ch3.tables.columnsNote') }),
    fixedNote,
  );
}

/** True when two trees have the same elements in the same places (texts and attributes aside). */
function sameShape(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.childNodes.length !== b.childNodes.length) return false;
  for (let k = 0; k < a.childNodes.length; k++)
    if (!sameShape(a.childNodes[k], b.childNodes[k])) return false;
  return true;
}

/**
 * The texts and attributes of `from` into `into`, a tree of the same shape, where they
 * differ: a new snapshot changes a few numbers of a table, and only those are laid out again
 * (a table built anew has the frame lay out and paint all of it, and the sidebar around it).
 */
function copyTexts(into, from) {
  if (into.nodeType === Node.TEXT_NODE) {
    if (into.data !== from.data) into.data = from.data;
    return;
  }
  for (const { name, value } of from.attributes)
    if (into.getAttribute(name) !== value) into.setAttribute(name, value);
  for (const { name } of [...into.attributes])
    if (!from.hasAttribute(name)) into.removeAttribute(name);
  for (let k = 0; k < into.childNodes.length; k++)
    copyTexts(into.childNodes[k], from.childNodes[k]);
}

/**
 * A view that draws `draw(run, tr)` and draws it again as the run moves on: { element }. The
 * run reports from the worker's messages: a table is drawn again in the next animation frame,
 * with the train stage's own drawing, never in the message's task (a table changed there has
 * the frame lay the page out twice: once for the mouse's hit test, once after the frame's
 * callbacks).
 * @param training app/training.mjs's controller (ctx.training)
 */
function followingView(training, tr, draw, key) {
  const element = h('div', { class: 'run-table' });
  let drawn = null;
  let shown = false; // on the page once: leaving it then ends the following
  let closedPanel = null; // the closed <details> it waits in, to be drawn when that opens
  const opened = () => {
    closedPanel?.removeEventListener('toggle', opened);
    closedPanel = null;
    update();
  };
  const update = () => {
    if (element.isConnected) shown = true;
    else if (shown) return unsubscribe();
    // In a closed panel (the tables' <details>) a table drawn at every snapshot is not seen:
    // it is drawn when the panel opens (1.2-1.4 ms of script per snapshot frame, and its
    // layout, while chapter 3 trains with the tables closed).
    const closed = element.closest('details:not([open])');
    if (closed) {
      if (closedPanel !== closed) {
        closedPanel?.removeEventListener('toggle', opened);
        closedPanel = closed;
        closed.addEventListener('toggle', opened);
      }
      return;
    }
    const { run } = training;
    const next = key(run);
    if (next === drawn) return;
    drawn = next;
    const table = draw(run, tr);
    const current = element.firstChild;
    if (current && sameShape(current, table)) copyTexts(current, table);
    else element.replaceChildren(table);
  };
  const unsubscribe = training.subscribe(oncePerFrame(update));
  update();
  return { element };
}

/** The loss table, drawn again at every checkpoint and when the run pauses or stops. */
export const runLossView = ({ training, tr }) =>
  followingView(training, tr, lossTable, (run) => {
    const count = run.losses.length;
    return `${Math.floor(count / LOSS_EVERY)}|${run.status}|${run.loadedStep}|${count === 0}`;
  });

/** The heads table, drawn again with every attention snapshot. */
export const runHeadsView = ({ training, tr }) =>
  followingView(
    training,
    tr,
    headsTable,
    (run) =>
      `${run.snapshots.length}|${run.probe !== null}|${run.settings.layers}|${run.settings.heads}`,
  );
