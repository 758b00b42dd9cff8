// English strings of the page itself, one key per sentence (or label). {name} marks a
// parameter. Each stage's own sentences sit beside it (stages/<chapter>/<name>.text.mjs);
// i18n/index.mjs merges both. The Chinese file has exactly the same keys; a test checks that.
export default {
  // --- page ---
  'app.title': 'Self-attention, step by step',
  'app.subtitle':
    'The computation of self-attention on a tiny example, animated, with every number computed live by a WebAssembly module.',
  'app.source': 'Following the article “Illustrated: Self-Attention” and its Chinese version.',
  'app.loading': 'Loading the WebAssembly module…',
  'app.language': 'Language',
  'app.keysHint':
    'Keys: Space play/pause · ← → previous/next step · Home/End first/last step · Tab into a matrix, then arrows move between its cells.',
  'app.footer':
    'Every attention number on this page is computed live by the attention module (C++ compiled to WebAssembly), the exponentials inside softmax and their sums too. The page itself only computes the article’s rounded printout, chapter 2’s counts and bytes, and the few sums and products of chapter 3’s block that are not attention (the residuals, LayerNorm, the MLP).',
  'app.skip': 'Skip to the walkthrough',
  // Two sentences in a row: English puts a space between them, Chinese none (its 。 ends one).
  'sentences.two': '{first} {second}',

  // --- load errors ---
  'load.title': 'The explainer could not start',
  'load.body':
    'The WebAssembly module that computes every number on this page could not be loaded, so there is nothing to show.',
  'load.hintServed':
    'If you opened dist/index.html straight from disk, open dist/explainer.html instead (it works offline as one file), or run scripts/run and open the address it prints.',
  'load.hintBrowser':
    'The page needs a browser with WebAssembly (and SIMD) enabled: a current Chromium, Firefox or Safari.',
  'load.reason': 'Reason given by the browser:',
  'load.scriptFailed': 'The page’s script could not be loaded.',

  // --- stages ---
  'stages.label': 'Stages',
  'stages.stepsBefore':
    '{n|# earlier step|# earlier steps} of this stage: scroll back to {n|it|them}',
  'stages.stepsAfter': '{n|# more step|# more steps} of this stage: scroll on to {n|it|them}',
  'stage.number': 'Stage {stage}',
  'stage.named': 'Stage {stage}: {name}',

  // --- step titles ---
  'title.row.keys': 'Key of input {i}',
  'title.row.values': 'Value of input {i}',
  'title.row.queries': 'Query of input {i}',
  'title.matrix.keys': 'All keys at once: K = X·W_K',
  'title.matrix.values': 'All values at once: V = X·W_V',
  'title.matrix.queries': 'All queries at once: Q = X·W_Q',
  'title.scores': 'Attention scores of query {i}',
  'title.softmax': 'Softmax of the scores of query {i}',
  'title.weighted': 'Weighted values for query {i}',
  'title.sum': 'Output {i}: the sum of the weighted values',

  // --- roles and labels ---
  'role.input': 'input',
  'role.key': 'key',
  'role.query': 'query',
  'role.value': 'value',
  'role.score': 'score',
  'role.weighted': 'weighted value',
  'role.output': 'output',
  'label.input': 'input {i}',
  'label.key': 'key {i}',
  'label.query': 'query {i}',
  'label.value': 'value {i}',
  'label.output': 'output {i}',
  'matrix.x': 'inputs',
  'matrix.wKey': 'key weights',
  'matrix.wQuery': 'query weights',
  'matrix.wValue': 'value weights',
  'matrix.queries': 'queries',
  'matrix.keys': 'keys',
  'matrix.values': 'values',
  'matrix.scores': 'scores',
  'matrix.weights': 'weights (softmax)',
  'matrix.weighted': 'weighted values',
  'matrix.outputs': 'outputs',
  'scene.arithmetic': 'The arithmetic of this step',

  // --- the article's rounding, told under the softmax (draw/rounding-note.mjs) ---
  'note.rounding':
    'The article rounds the softmax to one decimal before multiplying, and keeps each row’s sum at 1. Plain rounding would not: it turns {exactWeights} into {plainWeights}, which add up to {plainSum}. So the article first cuts each weight down to a tenth ({floors}), then gives the tenths still missing to the weights the cut took the most from. That is how {exactWeights} becomes {articleWeights}, which turns output {i} from {exactOutput} into {articleOutput}.',
  'note.roundingPlain':
    'The article rounds the softmax to one decimal before multiplying (here plain rounding already keeps the sum at 1): {exactWeights} becomes {articleWeights}, which turns output {i} from {exactOutput} into {articleOutput}.',

  // --- heatmaps ---
  'heatmap.description': 'Darker cells hold larger numbers.',
  'heatmap.flat': 'every score is {value}',

  // --- cell arithmetic ---
  'arith.projection': '{role} {i}, entry {c}: input {i} · column {c} of {weight}',
  'arith.score': 'Score of query {i} for key {j}',
  'arith.masked': 'masked: key {j} comes after query {i}',
  'arith.weight': 'Weight of key {j} for query {i} (softmax)',
  'arith.maskedWeight': 'a masked key gets no weight',
  'arith.articleRounding': 'the article’s rounding',
  'arith.exponential': 'Exponential of score {j} of query {i}, shifted by the row’s largest score',
  'arith.weighted': 'Value {j}, entry {c}, weighted for query {i}',
  'arith.output': 'Output {i}, entry {c}: weights of query {i} · column {c} of the values',

  // --- transport ---
  'transport.label': 'Playback',
  'transport.restart': 'Restart',
  'transport.previous': 'Previous',
  'transport.play': 'Play',
  'transport.pause': 'Pause',
  'transport.next': 'Next',
  'transport.timeline': 'Timeline',
  'transport.speed': 'Animation speed',
  'transport.position': 'Step {k} of {total}',
  'narrate.step': 'Step {k} of {total}: {title}.',

  // --- workbench ---
  'workbench.title': 'Your numbers',
  'workbench.intro':
    'Edit any number: every stage that uses them (chapter 1, and chapter 3’s first two stages) is recomputed at once by the WebAssembly module. Chapter 2 starts from the article’s tokens, with layer inputs of its own.',
  'workbench.settings': 'Settings',
  'workbench.rounding': 'Softmax numbers',
  'workbench.roundingExact': 'Exact',
  'workbench.roundingArticle': 'Article’s rounding',
  'workbench.scaled': 'Scale scores by 1/√d_k (as the Transformer)',
  'workbench.causal': 'Causal mask (no looking ahead)',
  'workbench.shape': 'Shape',
  'workbench.tokens': 'Tokens n',
  'workbench.addToken': 'Add a token',
  'workbench.removeToken': 'Remove the last token',
  'workbench.dIn': 'Input dimension d_in',
  'workbench.dK': 'Query/key dimension d_k',
  'workbench.dV': 'Value dimension d_v',
  'workbench.dkNote':
    'Queries and keys share d_k because they are dotted together (the article says “query and value”: a slip). d_v may differ.',
  'workbench.matrices': 'Inputs and weights',
  'workbench.random': 'Random numbers',
  'workbench.scheme': 'Weights',
  'workbench.gaussian': 'Gaussian N(0, 1)',
  'workbench.xavier': 'Xavier uniform',
  'workbench.seed': 'Seed',
  'workbench.randomise': 'Randomise',
  'workbench.randomised': 'Randomised: inputs N(0, 1), weights {scheme}, seed {seed}.',
  'workbench.reset': 'Reset to the article’s example',
  'workbench.wasResetTo': 'Back to the article’s example.',
  'workbench.traceError': 'The module refused these numbers: {message}',
  'editor.cell': '{matrix}, row {row}, column {col}',
  'entry.empty': 'Enter a number; an empty cell is not allowed.',
  'entry.notNumber':
    '“{text}” is not a number. Use digits, a minus sign and a decimal point, e.g. −0.5.',
  'entry.tooLarge': '“{text}” is out of range: enter a number between −1000 and 1000.',
  'entry.refused': 'Refused “{text}”: the cell keeps {value}.',

  // --- tables ---
  'tables.title': 'All numbers as tables',
  'tables.intro':
    'Every matrix of the computation as a plain table. Hover or focus a computed cell to see its arithmetic.',
  'tables.weightedFor': 'weighted values for query {i}',
  'tables.exactWeights': 'weights, exact',

  // --- notices ---
  'notice.dismiss': 'Dismiss',
  'url.fallback':
    'This link could not be used ({reason}), so the article’s example is shown instead.',
  'url.tooLong': 'it is {length|# character|# characters} long',
  'url.tooManyParts': 'it has too many parts',
  'url.badEncoding': 'it has broken percent-encoding: “{text}”',
  'url.duplicateKey': '“{key}” appears twice',
  'url.badStep': '“{value}” is not a step name',
  'url.unknownStep': 'there is no step “{value}”',
  'url.badValue': '“{value}” is not a valid value for {key}',
  'url.badMatrix':
    'the numbers for {key} are not a matrix of 1 to 8 rows and columns within ±1000: “{value}”',
  'url.unknownChapter': 'there is no chapter “{value}” (the chapters are 1 to {count})',
  'url.trainedTooLong':
    'it is {length|# character|# characters} long, more than the {most} a model link may have',
  'url.trainedNotText': 'it is not base64url text (letters, digits, - and _ only)',
  'url.unknownKey': 'it has an unknown setting “{key}”',
  'url.incompleteExample': 'it gives only some of the matrices x, wk, wq, wv',
  'url.badShape': 'the shape of {key} does not fit the other matrices',
  'url.badTrained':
    'The trained model in this link could not be loaded, so the model is as it was. ({reason})',

  // --- language switch ---
  'lang.en': 'English',
  'lang.zh': '中文',

  // --- badges beside the step's title ---
  'badge.ownNumbers': 'Your own numbers',
  'badge.articleRounding': 'Article’s rounding',
  'badge.scaled': '÷ √d_k',
  'badge.causal': 'Causal mask',

  // --- more roles ---
  'matrix.exponentials': 'exponentials',

  // --- intuition, and why the switches exist ---
  'why.scaling':
    'Why scale: a dot product adds up d_k products, so scores grow with d_k; large scores push softmax towards all-or-nothing, one weight near 1 and the rest near 0, where a network stops learning. Dividing by √d_k keeps them moderate.',
  'why.masking':
    'Why mask: a model that writes text does so one token at a time, left to right. When it computes token {i} the later tokens do not exist yet, so the mask hides them in training too: token {i} may only look at itself and the tokens before it.',
  'compare.title': 'Before and after, query {i}',
  'compare.without.scaled': 'without ÷ √d_k',
  'compare.with.scaled': 'with ÷ √{dK}',
  'compare.without.causal': 'without the mask',
  'compare.with.causal': 'with the mask',
  'compare.scores': 'scores',
  'compare.weights': 'weights',
  'compare.outputs': 'output {i}',
  'transport.stage': 'Stage {stage} of {total}',
  'transport.ticks': 'Stages',
  'workbench.ownNumbers':
    'These are your own numbers now, not the article’s: the article’s rounding note is shown only for its own example.',
  'workbench.practiceNumbers':
    'This is a practice example of small whole numbers, not the article’s: the article’s rounding note is shown only for its own example.',

  // --- glossary pop-ups ---
  'glossary.open': 'What is this?',
  'glossary.webassembly.match': 'WebAssembly',
  'glossary.webassembly':
    'a compact binary format that browsers run at near-native speed; here it is C++ code compiled for the browser, computing every number.',
  'glossary.trace.match': 'trace()',
  'glossary.trace':
    'the module’s function that runs self-attention stage by stage and returns every intermediate: queries, keys, values, scores, the softmax’s exponentials and sums, weights, outputs.',
  'glossary.gaussian.match': 'Gaussian',
  'glossary.gaussian':
    'random numbers from the bell-shaped normal distribution N(0, 1): mostly near 0, rarely far from it.',
  'glossary.xavier.match': 'Xavier',
  'glossary.xavier':
    'a way to draw starting weights (Glorot and Bengio, 2010): uniform in ±√(6 / (inputs + outputs)), so signals keep about the same size from layer to layer.',
  'glossary.transformer.match': 'Transformer',
  'glossary.transformer':
    'the neural network architecture of “Attention Is All You Need” (2017), built from layers of self-attention; today’s language models are Transformers.',
  'glossary.embedding.match': 'token embedding',
  'glossary.embedding':
    'a token (a word or a piece of one) represented as a vector of numbers that a network learns, so that similar tokens get similar vectors.',
  // ---- glossary: the terms a learner meets along the way ----
  'glossary.softmax.match': 'softmax',
  'glossary.softmax':
    'turns a row of numbers into weights that are positive and add up to 1: e to each number, divided by the sum of them all. The largest number gets the largest weight.',
  'glossary.dk.match': 'd_k',
  'glossary.dk':
    'the number of columns of the queries and the keys (k for key). Scores are their dot products, so both have it; scaled attention divides the scores by √d_k.',
  'glossary.kvcache.match': 'KV cache',
  'glossary.kvcache':
    'while a model writes text token by token, the keys and values of the tokens so far, kept in memory so that each new token computes only its own (chapter 2, “Decoding with a KV cache”).',
  'glossary.rope.match': 'RoPE',
  'glossary.rope':
    'rotary position embedding: each pair of numbers of a query and of a key is turned by an angle proportional to its position, so a score depends on how far apart the two tokens are (chapter 3).',
  'glossary.layernorm.match': 'LayerNorm',
  'glossary.layernorm':
    'rescales each token’s row to mean 0 and standard deviation 1 (then a learned scale and shift), so the numbers stay in a usable range however many layers are stacked.',
  'glossary.mlp.match': 'MLP',
  'glossary.mlp':
    'multi-layer perceptron: two weight matrices with a ReLU between them, applied to each token on its own; the other half of a Transformer block.',
  'glossary.induction.match': 'induction head',
  'glossary.induction':
    'a head that, from the current token, looks at the token right after that token’s earlier occurrence, so the model can copy what came next last time. It needs a previous-token head in an earlier layer.',
  'glossary.logits.match': 'logits',
  'glossary.logits':
    'the model’s raw score for each possible next token; the softmax of the logits gives their probabilities.',
  'glossary.loss.match': 'loss',
  'glossary.loss':
    'one number that says how wrong the model is (here the squared distance to a target, or the cross-entropy of the next token); training changes the weights to make it smaller.',

  // Chapter 2
  'chapter.article': 'Chapter 1 · The article',
  'chapter.layer': 'Chapter 2 · A real layer',
  'ch2.head': 'Head {h}',
  'ch2.matrix.wOut': 'output weights',
  'ch2.attention.readsKv': 'reads K/V head {g}',
  'ch2.attention.scores': 'scores of head {h}',
  'ch2.attention.weights': 'weights of head {h}',
  'ch2.concat.name': 'heads side by side',
  'ch2.output.name': 'layer output',
  'ch2.kv.mha': 'MHA',
  'ch2.kv.gqa': 'GQA',
  'ch2.kv.mqa': 'MQA',
  'ch2.kv.explain.mha':
    'Multi-head attention (MHA): each of the {heads|# query head|# query heads} has its own key/value head.',
  'ch2.kv.explain.gqa':
    'Grouped-query attention (GQA): the {heads|# query head|# query heads} are split into {kvHeads|# group|# groups} of {group}; the heads of a group read the same keys and values, so the cache holds {kvHeads|# K/V head|# K/V heads} instead of {heads}.',
  'ch2.kv.explain.mqa':
    'Multi-query attention (MQA): all {heads|# query head|# query heads} read one key/value head; the cache is {group} times smaller than with MHA.',
  'ch2.kv.calc.layers': 'layers',
  'ch2.kv.calc.heads': 'query heads',
  'ch2.kv.calc.kvHeads': 'K/V heads',
  'ch2.kv.calc.dHead': 'head size',
  'ch2.kv.calc.tokens': 'tokens',
  // ---- The module's names, folded under the prose ("For developers") ----
  'explain.developers': 'For developers',
  'ch2.editor.title': 'Chapter 2: the layer',
  'ch2.editor.intro':
    'The layer of chapter 2: its tokens, heads, and five matrices. d_model is 4; changing the K/V heads keeps each group’s first head’s keys and values.',
  'ch2.editor.matrix': 'layer {name}',
  'ch2.editor.heads': 'query heads',
  'ch2.editor.kvHeads': 'K/V heads',
  'ch2.editor.dHead': 'd_head',
  'arith2.queries': 'Query {i}, column {c} (head {head}): input {i} dotted with column {c} of W_Q',
  'arith2.keys': 'Key {i}, column {c} (K/V head {head}): input {i} dotted with column {c} of W_K',
  'arith2.values':
    'Value {i}, column {c} (K/V head {head}): input {i} dotted with column {c} of W_V',
  'arith2.score': 'Head {head}: score of query {i} against key {j} (K/V head {g})',
  'arith2.weight': 'Head {head}: weight of key {j} for query {i}, the softmax of row {i}',
  'arith2.headOutput': 'Head {head}: output {i}, column {c}: the weighted values added up',
  'arith2.concat': 'Row {i}, column {c}: head {head}’s output, its column {k}',
  'arith2.output': 'Layer output {i}, column {c}: row {i} of C dotted with column {c} of W_O',
  'arith2.decodeScore': 'Head {head}, token {t}: its query against cached key {j} (K/V head {g})',
  'arith2.decodeOutput':
    'Head {head}, token {t}, column {c}: the output Y of attention with the cache',
  'arith2.decodeOutputEquals': 'Y = {y}; row {t} of full causal attention = {full}',

  // Learning tools
  'tools.predict': 'Predict',
  'tools.exercise.heading': 'Predict the next number',
  'tools.exercise.yourAnswer': 'Your answer',
  'tools.exercise.check': 'Check',
  'tools.exercise.reveal': 'Reveal',
  'tools.exercise.another': 'Another number',
  'tools.exercise.reset': 'Reset progress for this example',
  'tools.exercise.practice': 'Practice with a new example',
  'tools.exercise.tolerance':
    'Work it out from the numbers on screen. Within {relative}% (or ±{absolute} of an answer near 0) counts as right.',
  'tools.exercise.toleranceMasked': 'A masked score is −∞ (type -inf).',
  'tools.exercise.whole': 'Work it out from the scene; the answer is a whole number.',
  'tools.exercise.noneHere':
    'No question at this step: read its numbers in the scene. In this chapter Predict asks at: {steps}.',
  'tools.exercise.listSeparator': '; ',
  'tools.exercise.wrongHint': 'Not quite. A hint:',
  'tools.exercise.none':
    'Nothing to predict at this step: its numbers are given, not computed. Steps that compute numbers ask; or practise with a new example.',
  'tools.exercise.tally': 'Solved here: {here} of {total}. Solved in this example: {solved}.',
  'tools.exercise.right': 'Right: the page computes {answer}.',
  'tools.exercise.revealed': 'The answer is {answer}.',
  'tools.exercise.wrong':
    'Not quite. Here is the arithmetic of that cell, step by step; the cells it uses are outlined in the scene.',
  'tools.mistake.noExp':
    'That is the score divided by the sum of the scores: softmax takes e to the power of each score first.',
  'tools.mistake.noDivide':
    'That is e^(score − max), the numerator: divide it by the sum of the row’s exponentials.',
  'tools.mistake.noShift':
    'That is e^score, without subtracting the row’s maximum and without dividing by the sum.',
  'tools.mistake.wrongRow':
    'That is the number for the other way round (row and column swapped): the row is the query, the column the key.',
  'tools.mistake.noScale': 'That is the score before the scaling: multiply it by 1/√d_k.',
  'tools.exercise.notNumber': 'Type a number, such as 2, −1.5, 0.25 or 1/4.',
  'tools.exercise.wasReset': 'Progress for this example was reset.',
  'tools.hint.masked': 'The causal mask hides this key from this query.',
  'tools.ask.keys': 'What is {symbol}, entry {c} of key {i}?',
  'tools.ask.queries': 'What is {symbol}, entry {c} of query {i}?',
  'tools.ask.values': 'What is {symbol}, entry {c} of value {i}?',
  'tools.ask.scores': 'What is {symbol}, the score of query {i} for key {j}?',
  'tools.ask.exponentials': 'What is {symbol}, the exponential of query {i}’s score for key {j}?',
  'tools.ask.weights': 'What is {symbol}, the weight query {i} gives key {j}?',
  'tools.ask.weighted': 'What is {symbol}, entry {c} of value {j} times query {i}’s weight for it?',
  'tools.ask.outputs': 'What is {symbol}, entry {c} of output {i}?',
  'tools.ask.head-scores': 'What is {symbol} in head {h}, the score of query {i} for key {j}?',
  'tools.ask.head-weights': 'What is {symbol} in head {h}, the weight query {i} gives key {j}?',
  'tools.practice.status': 'Practice: a new example of small whole numbers.',
  // ---- Practice keeps the reader's numbers and gives them back ----
  'tools.practice.kept':
    'Practice: a new example of small whole numbers, at the first step that asks. Your own numbers are kept.',
  'tools.practice.keptArticle':
    'Practice: a new example of small whole numbers, at the first step that asks. The article’s example is kept.',
  'tools.practice.back': 'Back to your numbers',
  'tools.practice.backArticle': 'Back to the article’s example',
  'tools.practice.left': 'Back from practice: your numbers, at the step you left.',
  'tools.export': 'Export',
  'tools.export.heading': 'Export this step',
  'tools.export.png': 'Image (PNG)',
  'tools.export.svg': 'Vector image (SVG)',
  'tools.export.gif': 'Animated GIF of the stage',
  'tools.export.json': 'Every matrix (JSON)',
  'tools.export.csv': 'Every matrix (CSV)',
  'tools.export.recording': 'Recording the GIF: frame {done} of {total}…',
  'tools.export.saved': '{format} saved.',
  'tools.export.failed': 'The {format} could not be made: {reason}',
  'tools.share.link': 'Link to this step',
  'tools.share.markup': 'This explainer as it is now',
  'tools.share.copy': 'Copy',
  'tools.share.note':
    'The link carries your edited numbers and the settings: whoever opens it sees this step with exactly these numbers.',
  'tools.share.markupNote':
    'Paste this into a course page (after the module script) to show this step with exactly these numbers and settings.',
  'tools.share.copied': 'Copied.',
  'tools.share.select': 'Selected: press Ctrl+C (⌘C) to copy.',

  // Chapter 4's title (its sentences are with its stages, stages/language/)
  'chapter.language': 'Chapter 4 · A tiny language model',

  // Chapter 3 (where the weights come from): the chapter and stage "Order"
  'chapter.learning': 'Chapter 3 · Where the weights come from',
  'ch3.order.inputs': 'inputs',
  'ch3.order.outputs': 'outputs',

  // Chapter 3, stage "One learning step"
  'ch3.title.learn-outputs': 'Backwards 1: how the loss changes with each output',
  'ch3.title.learn-attention': 'Backwards 2: …with each attention weight',
  'ch3.title.learn-scores': 'Backwards 3: through the softmax, to the scores',
  'ch3.title.learn-qkv': 'Backwards 4: to the queries, keys and values',
  'ch3.title.learn-weights': 'Backwards 5: to the weights W_Q, W_K, W_V',
  'ch3.learn.gradient': 'gradient',
  'ch3.learn.name.values': 'values',
  'ch3.learn.name.weights': 'attention weights',
  'ch3.learn.target': 'target t',
  'ch3.learn.targetEntry': 'Target, entry {c}',
  'ch3.learn.targetInvalid':
    'Target entry {c}: expected a number between −1000 and 1000, given “{given}”.',
  'ch3.learn.suggestion': 'Use the suggested target',
  'ch3.learn.after': 'after {steps|one step|# steps}',
  'ch3.learn.plot': 'Loss after each step',
  'ch3.learn.plotCaption': 'Loss after each step: {first} → {last}',
  // The weights' names in chapters 2 and 3 (their editors), in those chapters' words.
  'matrix.later.wQuery': 'query weights',
  'matrix.later.wKey': 'key weights',
  'matrix.later.wValue': 'value weights',
  // ---- Chapter 3 · the learning step's loss chart and its divergence ----
  'ch3.learn.plotSteps': 'steps taken',
  'ch3.learn.plotLoss': 'loss',

  // Chapter 3, stage "Order and positions": positions and RoPE
  'ch3.order.positions': 'position vectors',
  'ch3.rope.axis': 'column {c}',
  'ch3.rope.legendQuery': 'query {i}',
  'ch3.rope.legendKey': 'key {j}',
  'ch3.rope.picture':
    'The first pair of the query and of the key as arrows, each turned by its position times θ',
  'ch3.rope.position': 'position m = {m}',

  // Chapter 3, stage "The rest of the block"
  'ch3.title.block-residual': 'The residual connection: X + attention(X)',
  'ch3.title.block-norm': 'LayerNorm: each row to mean 0, spread 1',
  'ch3.title.block-mlp': 'The MLP, and a second residual',
  'ch3.block.name.y': 'attention’s output',
  'ch3.block.name.residual': 'residual sum',
  'ch3.block.name.normed': 'normalised',
  'ch3.block.name.hidden': 'hidden (after ReLU)',
  'ch3.block.name.mlp': 'MLP output',
  'ch3.block.name.output': 'block output',
  'ch3.block.name.w1': 'MLP weights in (d → hidden)',
  'ch3.block.name.w2': 'MLP weights out (hidden → d)',

  // Chapter 3: the cell inspector's titles
  'ch3.inspect.grad': 'A gradient, from the one after it',
  'ch3.inspect.learn': 'The weight after one step: w − η·∂L/∂w',
  'ch3.inspect.later': 'after {steps} steps: {value}',
  'ch3.inspect.block': 'This cell’s arithmetic',
  // ---- Chapter 3 · stage "train" (train a tiny model live) ----
  'ch3.train.curveLabel': 'The loss at every training step',
  'ch3.train.axisSteps': 'training steps',
  'ch3.train.dropMark': 'drop at step {step}',
  'ch3.train.headName': 'Layer {layer} · head {head}',
  // ---- Chapter 3 · what a head reads as (model/head-reading.mjs), the tiny model, its loss ----
  'ch3.read.previous': 'previous token: {share} of its weight on the token just before',
  'ch3.read.induction':
    'induction: {share} of its weight on the token after the earlier copy of the current one',
  'ch3.read.copy': 'earlier copy: {share} of its weight on the earlier copy of the current token',
  'ch3.read.fixed': 'fixed token: {share} of its weight on {token}, wherever it stands',
  'ch3.read.self': 'itself: {share} of its weight on the current token',
  'ch3.read.leans': 'leans to {toward}: {share} of its weight goes there, short of half',
  'ch3.read.diffuse': 'diffuse: spread over about {keys} tokens, none of them favoured',
  'ch3.read.mixed':
    'no single pattern: each query looks at about {keys} tokens, but not the same kind of token',
  'ch3.kind.previous': 'previous token',
  'ch3.kind.induction': 'induction',
  'ch3.kind.copy': 'earlier copy',
  'ch3.kind.fixed': 'fixed token {token}',
  'ch3.kind.self': 'itself',
  'ch3.kind.leans': 'leans to {toward}',
  'ch3.kind.diffuse': 'diffuse',
  'ch3.kind.mixed': 'no single pattern',
  // ---- Chapter 3 · stage "heads-learned" (what the heads learned) ----
  'ch3.heads.emptyInput': 'Type at least one letter.',
  'ch3.heads.badLetter': 'Only the letters A to O are tokens of this model, not “{letter}”.',
  'ch3.heads.tooLong': 'At most {most} letters fit in the model’s context.',
  'ch3.files.png': 'Loss curve (PNG)',
  'ch3.files.svg': 'Loss curve (SVG)',
  'ch3.files.csv': 'Loss at every step (CSV)',
  'ch3.files.json': 'Trained parameters (JSON)',
  'ch3.files.load': 'Load parameters (JSON)',
  'ch3.files.loaded': 'Loaded: a model trained for {step|# step|# steps}.',
  'ch3.files.refused': 'Not loaded: {reason}',
  'ch3.files.link': 'Copy link to this trained model',
  'ch3.files.linkCopied':
    'Link copied ({length|# character|# characters}): it opens the page with this model.',
  'ch3.files.linkSelect':
    'The link ({length|# character|# characters}) is selected: press Ctrl+C (⌘C) to copy it.',
  'ch3.panels.title': 'This step’s numbers',
  // ---- Chapter 3 · every head's heatmap as files (tools/export/heatmaps.mjs) ----
  'ch3.files.heatmaps.png': 'Heatmaps (PNG)',
  'ch3.files.heatmaps.svg': 'Heatmaps (SVG)',
  'ch3.files.heatmaps.csv': 'Every head’s weights (CSV)',
  'ch3.files.heatmaps.after': 'After {step|# training step|# training steps}',
  // --- Page layout, phones and cost (round 4): the real model named, the length slider, touch
  'tables.intro.touch':
    'Every matrix of the computation as a plain table. Tap a computed cell to see its arithmetic.',
  'stages.toggle': 'Stage {stage} of {total}: {name}',
  'transport.ticksOpen': 'Stages: open the list of stages',
  'app.scrollCue': 'This scene is wider than the screen: swipe it sideways to see the rest →',
};
