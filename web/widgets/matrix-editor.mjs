// An editable matrix: one text field per entry. A valid number is committed at once (the
// page recomputes through wasm while you type); anything else is refused inline with a
// message, and on leaving the field it goes back to the last accepted number.
// Keyboard (the ARIA grid pattern): the matrix is one Tab stop, the field last used; the
// arrows move between fields (← → once the caret is at the edge of the text, or the whole
// number is selected, as it is on arriving), Enter moves down.
import { h } from '../dom.mjs';
import { formatEditable, formatExact } from '../format.mjs';
import { parseEntry } from '../model/example.mjs';

let editorCount = 0;

/**
 * @param {object} spec
 * @param {string} spec.name  x, wKey, wQuery or wValue
 * @param {string} spec.role  colour role
 * @param {Node} spec.symbol
 * @param {(row: number, col: number, value: number) => void} spec.onCommit
 */
export function createMatrixEditor({ name, role, symbol, onCommit }) {
  editorCount += 1;
  const messageId = `editor-message-${editorCount}`;
  const caption = h('span', { class: 'matrix-name' });
  const shape = h('span', { class: 'matrix-shape' });
  const body = h('tbody');
  const table = h('table', { class: 'editor-table', role: 'grid' }, body);
  const message = h('p', { class: 'editor-message', id: messageId, role: 'alert' });
  const element = h(
    'figure',
    { class: `matrix editor role-${role}`, dataset: { editor: name } },
    h(
      'figcaption',
      { class: 'matrix-caption' },
      h('span', { class: 'matrix-symbol' }, symbol),
      caption,
      shape,
    ),
    h('div', { class: 'matrix-frame' }, table),
    message,
  );
  let inputs = [];
  let values = [];
  let tr = (key) => key;

  function showMessage(text) {
    message.textContent = text;
    element.classList.toggle('has-message', Boolean(text));
  }

  function onInput(input, i, j) {
    const parsed = parseEntry(input.value);
    if (parsed.error) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', messageId);
      showMessage(tr(parsed.error, { text: input.value.trim().slice(0, 24) }));
      return;
    }
    clearInvalid(input);
    if (parsed.value !== values[i][j]) {
      values[i][j] = parsed.value;
      onCommit(i, j, parsed.value);
    }
  }

  function clearInvalid(input) {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
    if (!inputs.flat().some((other) => other.getAttribute('aria-invalid') === 'true'))
      showMessage('');
  }

  function onChange(input, i, j) {
    if (input.getAttribute('aria-invalid') !== 'true') {
      // Accepted: written back in the page's one style ("-2.5" typed reads "−2.5", as in the
      // scene), the number itself unchanged.
      const text = formatEditable(values[i][j]);
      if (input.value !== text) input.value = text;
      return;
    }
    // Leaving a refused entry: restore the number in use and say so.
    const refused = input.value.trim().slice(0, 24);
    input.value = formatEditable(values[i][j]);
    clearInvalid(input);
    showMessage(tr('entry.refused', { text: refused, value: formatExact(values[i][j]) }));
  }

  /** The one field of the matrix in the Tab order: the one used last. */
  function makeTabStop(input) {
    for (const other of inputs.flat()) other.tabIndex = other === input ? 0 : -1;
  }

  function build(matrix) {
    inputs = matrix.map((row, i) =>
      row.map((value, j) => {
        const input = h('input', {
          type: 'text',
          inputmode: 'decimal',
          class: 'editor-input',
          autocomplete: 'off',
          spellcheck: 'false',
          value: formatEditable(value),
          dataset: { row: i, col: j },
        });
        input.addEventListener('input', () => onInput(input, i, j));
        input.addEventListener('change', () => onChange(input, i, j));
        input.addEventListener('keydown', (event) => moveInGrid(event, inputs, i, j));
        input.addEventListener('focus', () => {
          makeTabStop(input);
          input.select();
        });
        return input;
      }),
    );
    makeTabStop(inputs[0][0]);
    body.replaceChildren(
      ...inputs.map((row) =>
        h(
          'tr',
          { role: 'row' },
          row.map((input) => h('td', { role: 'gridcell' }, input)),
        ),
      ),
    );
  }

  /** Shows the matrix; keeps the field being typed in (and refused entries) untouched. */
  function update(matrix, translate, name) {
    tr = translate;
    caption.textContent = name;
    table.setAttribute('aria-label', name);
    shape.textContent = `${matrix.length}×${matrix[0].length}`;
    const sameShape = inputs.length === matrix.length && inputs[0]?.length === matrix[0].length;
    values = matrix.map((row) => row.slice());
    if (!sameShape) {
      build(matrix);
      showMessage('');
    }
    // Fields as wide as the longest number, so no entry is ever cut off.
    const longest = Math.max(3, ...matrix.flat().map((value) => formatEditable(value).length));
    table.style.setProperty('--editor-chars', String(Math.min(longest, 12)));
    inputs.forEach((row, i) =>
      row.forEach((input, j) => {
        input.setAttribute(
          'aria-label',
          tr('editor.cell', { matrix: name, row: i + 1, col: j + 1 }),
        );
        const editing =
          input === document.activeElement || input.getAttribute('aria-invalid') === 'true';
        if (!editing && parseEntry(input.value).value !== matrix[i][j])
          input.value = formatEditable(matrix[i][j]);
      }),
    );
  }

  /** Clears refusals (after reset or randomise, which replace every number). */
  function clearMessages() {
    for (const input of inputs.flat()) {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
    showMessage('');
  }

  return { element, update, clearMessages };
}

/** The arrows (and Enter) move between the fields of the grid `inputs`. */
function moveInGrid(event, inputs, i, j) {
  const input = event.target;
  const { selectionStart: start, selectionEnd: end, value } = input;
  const whole = start === 0 && end === value.length;
  const rows = { ArrowUp: -1, ArrowDown: 1, Enter: 1 };
  let target = null;
  if (event.key in rows) target = inputs[i + rows[event.key]]?.[j];
  else if (event.key === 'ArrowLeft' && (whole || end === 0)) target = inputs[i][j - 1];
  else if (event.key === 'ArrowRight' && (whole || start === value.length))
    target = inputs[i][j + 1];
  else return;
  if (!target && !(event.key in rows)) return; // at the edge: the caret stays where it is
  event.preventDefault();
  target?.focus();
}
