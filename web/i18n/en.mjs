// English strings, one key per sentence (or label). {name} marks a parameter. The Chinese
// file has exactly the same keys; a test checks that.
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
    'Every number on this page comes from the trace() of the attention module (C++ compiled to WebAssembly). The exponentials inside softmax and their sums come from it too; the only arithmetic done in the page is the article’s rounded printout.',
  'app.skip': 'Skip to the walkthrough',

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
  'stage.inputs': 'The inputs',
  'stage.weights': 'The weights',
  'stage.projections': 'Keys, values, queries',
  'stage.scores': 'Attention scores',
  'stage.softmax': 'Softmax',
  'stage.weighted': 'Weighted values',
  'stage.sum': 'The output',
  'stage.everyQuery': 'Every other query',
  'stage.number': 'Stage {stage}',

  // --- step titles ---
  'title.inputs': 'The inputs: {n|# token|# tokens} as the rows of X',
  'title.weights': 'Three weight matrices',
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
  'title.result': 'The whole result',

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
  'label.scoresOf': 'scores of query {i}',
  'matrix.x': 'inputs',
  'matrix.wKey': 'key weights',
  'matrix.wQuery': 'query weights',
  'matrix.wValue': 'value weights',
  'matrix.queries': 'queries',
  'matrix.keys': 'keys',
  'matrix.keysTransposed': 'keys, transposed',
  'matrix.values': 'values',
  'matrix.scores': 'scores',
  'matrix.weights': 'weights (softmax)',
  'matrix.weighted': 'weighted values',
  'matrix.outputs': 'outputs',
  'scene.arithmetic': 'The arithmetic of this step',

  // --- scene: inputs ---
  'inputs.embeddings':
    'Self-attention takes token embeddings as its input: each word of a sentence is replaced by a vector of numbers.',
  'inputs.example':
    'Here we have {n|# token|# tokens}, each a {d}-dimensional vector: the {n|# row|# rows} of X (green).',
  'formula.inputs': 'X is a matrix of {n|# row|# rows} and {d|# column|# columns}',
  'narrate.inputs': '{n|# input|# inputs} of dimension {d}. {rows}.',

  // --- scene: weights ---
  'weights.three':
    'Each input is multiplied by three weight matrices to get its key (orange), its query (red) and its value (purple).',
  'weights.shapes':
    'An input has shape 1×{dIn}; a key and a query have shape 1×{dK}, a value 1×{dV}; so W_K and W_Q are {dIn}×{dK} and W_V is {dIn}×{dV}.',
  'weights.random':
    'In a real network these weights are small random numbers (for example Gaussian or Xavier), set before training and updated during it.',
  'formula.weights': 'W K and W Q are {dIn} by {dK}; W V is {dIn} by {dV}',
  'narrate.weights': 'Weights: W_K and W_Q are {dIn}×{dK}, W_V is {dIn}×{dV}.',

  // --- scene: one row of a projection ---
  'projection.row.keys':
    'Input {i} times {weight}: each entry of key {i} is the dot product of the input row with one column of the key weights.',
  'projection.row.values':
    'Input {i} times {weight}: each entry of value {i} is the dot product of the input row with one column of the value weights.',
  'projection.row.queries':
    'Input {i} times {weight}: each entry of query {i} is the dot product of the input row with one column of the query weights.',
  'projection.row.first':
    'Watch the frame sweep across the columns: one column, one number of the {role}.',
  'projection.row.same':
    'The same weights serve every input: input {i} gets its {role} from the same matrix.',
  'formula.projectionRow': '{role} {i} is input {i} times the weight matrix',
  'narrate.projectionRow': '{role} {i} = input {i} times {weight} = {vector}.',

  // --- scene: the matrix product ---
  'projection.matrix.faster':
    'A faster way: stack the inputs into X and compute every row at once as one matrix product.',
  'projection.matrix.rows':
    'Row i of {symbol} is exactly the {role} of input i from the row-by-row steps.',
  'formula.projectionMatrix': '{symbol} equals X times {weight}',
  'narrate.projectionMatrix': 'All {role}s at once: {symbol} = X·{weight}.',

  // --- scene: scores ---
  'scores.dot':
    'The attention scores (blue) of input {i}: its query (red) dotted with the key (orange) of every input, its own included.',
  'scores.count':
    'That gives {n|# score|# scores} for input {i}: how well its query matches each key.',
  'scores.onlyFirst':
    'Only the query of input 1 is used here; the other queries repeat the same steps later.',
  'scores.scaled':
    'Scaled, as in the Transformer: every score is divided by √d_k = √{dK}, so that long vectors do not make the softmax too sharp.',
  'scores.maskedTerm': 'masked: key {j} comes after query {i}',
  'formula.scores': 's i j equals q i dot k j',
  'formula.mask':
    'plus m i j: 0 for a key j up to i, minus infinity for a later key (the causal mask)',
  'formula.scoresScaled': 's i j equals q i dot k j divided by the square root of d k',
  'note.articleSlip':
    'Queries and keys must have the same dimension d_k, because scores are their dot products. (The article says “query and value” here: a slip.) The value dimension may differ, and the output takes the value’s dimension.',
  'narrate.scores': 'Scores of query {i} = {vector}.',

  // --- scene: softmax ---
  'softmax.table': 'Softmax of the scores of query {i}',
  'softmax.rowScores': 'score',
  'softmax.rowExp': 'e^(s − max)',
  'softmax.rowWeights': 'weight',
  'softmax.rowWeightsArticle': 'weight, as the article',
  'softmax.rowExact': 'exact weight',
  'softmax.rowBars': 'share',
  'softmax.stackedLabel': 'The weights of query {i} as shares of one bar',
  'softmax.addsToOne': 'The shares always add up to 1.',
  'softmax.normalise': 'Softmax turns the scores into weights that are positive and add up to 1.',
  'softmax.how':
    'Raise e to each score (minus the largest score, which changes nothing but keeps the numbers small), then divide each by their sum.',
  'softmax.articleRounds':
    'As in the article, the weights are shown rounded to one decimal: {weights}.',
  'formula.softmax': 'a i j equals e to the s i j over the sum over l of e to the s i l',
  'narrate.softmax': 'Weights of query {i} = {vector}.',
  'note.rounding':
    'The article rounds the softmax to one decimal before multiplying, and keeps each row’s sum at 1. Plain rounding would not: it turns {exactWeights} into {plainWeights}, which add up to {plainSum}. So the article first cuts each weight down to a tenth ({floors}), then gives the tenths still missing to the weights the cut took the most from. That is how {exactWeights} becomes {articleWeights}, which turns output {i} from {exactOutput} into {articleOutput}.',
  'note.roundingPlain':
    'The article rounds the softmax to one decimal before multiplying (here plain rounding already keeps the sum at 1): {exactWeights} becomes {articleWeights}, which turns output {i} from {exactOutput} into {articleOutput}.',
  'softmax.addsToOneRounded':
    'The shares always add up to 1. The weights printed beside them add up to {sum} only because each is rounded to three decimals.',

  // --- scene: weighted values ---
  'weighted.multiply':
    'Multiply each value (purple) by its weight (blue): the results are {n|# weighted value|# weighted values} (yellow).',
  'weighted.article':
    'With the article’s rounding, the rounded weights are multiplied here (display arithmetic, as the article does).',
  'weighted.approx':
    '“≈” marks a line whose printed numbers multiply out only roughly: the weight is printed rounded to three decimals, and the products are computed from the exact weight.',
  'numbers.decimals':
    'A number printed with three decimals is rounded for display (2.000 may be 1.99999…); one printed without decimals, such as 2, is exact.',
  'formula.weighted': 'a i j times v j',
  'narrate.weighted': 'Weighted values for query {i}: {lines}.',

  // --- scene: sum ---
  'sum.table': 'Adding the weighted values of query {i}',
  'sum.caption': 'output {i}',
  'sum.add':
    'Add the {n|# weighted value|# weighted values} element-wise: the sum is output {i} (dark green).',
  'sum.meaning':
    'Output {i} mixes the values of all inputs, each in proportion to how well its key matched query {i}.',
  'sum.approx':
    '“≈” marks a sum whose printed terms add up only roughly: each weighted value is printed rounded, and the output is the sum of the exact ones.',
  'sum.dimension': 'The output has the value’s dimension, d_v = {dV}.',
  'formula.sum': 'o i equals the sum over j of a i j times v j',
  'narrate.sum': 'Output {i} = {vector}.',

  // --- scene: result ---
  'result.repeat':
    'Repeat the same steps for every query and you get the whole result: one output row per input.',
  'result.matrices':
    'As matrices: the scores are Q·Kᵀ, the weights are the softmax of each row, the outputs are weights · V.',
  'result.matricesScaled':
    'As matrices: the scores are Q·Kᵀ / √d_k, the weights are the softmax of each row, the outputs are weights · V.',
  'result.heatmaps':
    'The heatmaps show which key each query attends to: the darker the cell, the larger the number.',
  'heatmap.description': 'Darker cells hold larger numbers.',
  'formula.result': 'O equals softmax of Q K transposed, times V',
  'formula.resultScaled': 'O equals softmax of Q K transposed over the square root of d k, times V',
  'narrate.result': 'All outputs: {outputs}.',

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
    'Edit any number: every later stage is recomputed at once by the WebAssembly module.',
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
  'weights.intuition':
    'An intuition: a query is what a token is looking for, a key is what it offers to be found by, and a value is what it hands over once it is found, like a search that matches questions against labels and returns the contents.',
  'scores.dotCausal':
    'The attention scores (blue) of input {i}: its query (red) dotted with the keys (orange) of {i|input 1|inputs 1 to #}, its own included; the causal mask hides every later key.',
  'scores.countCausal':
    'That gives {visible|# score|# scores} for input {i}, how well its query matches each key it may see; {hidden|the later key gets|the # later keys get} −∞.',
  'scores.countCausalNone':
    'That gives {visible|# score|# scores} for input {i}: it is the last input, so no key comes after it and nothing is masked.',
  'why.scaling':
    'Why scale: a dot product adds up d_k products, so scores grow with d_k; large scores push softmax towards all-or-nothing, one weight near 1 and the rest near 0, where a network stops learning. Dividing by √d_k keeps them moderate.',
  'why.masking':
    'Why mask: a model that writes text does so one token at a time, left to right. When it computes token {i} the later tokens do not exist yet, so the mask hides them in training too: token {i} may only look at itself and the tokens before it.',
  'sum.meaningCausal':
    'Output {i} mixes the values of {i|input 1|inputs 1 to #} only (the mask hides the later ones), each in proportion to how well its key matched query {i}.',
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
  'stage.heads': 'Several heads',
  'stage.headAttention': 'Each head attends',
  'stage.output': 'Concatenate, then W_O',
  'stage.kvSharing': 'Shared K/V heads',
  'stage.decoding': 'Decoding with a KV cache',
  'ch2.title.heads': 'One layer, several heads: Q, K and V split by columns',
  'ch2.title.attention': 'Every head attends on its own',
  'ch2.title.concat': 'The heads’ outputs side by side',
  'ch2.title.output': 'The output projection: Y = C·W_O',
  'ch2.title.kv': 'MHA, GQA, MQA: query heads sharing K/V heads',
  'ch2.title.decode': 'Decoding token {t} with the KV cache',
  'ch2.head': 'Head {h}',
  'ch2.matrix.wOut': 'output weights',
  'ch2.heads.legend': 'Which columns each head owns',
  'ch2.heads.columns': 'columns {from}–{to} of Q; reads K/V head {g}',
  'ch2.heads.grown':
    'The same example, grown a little: the article’s three tokens and a fourth, {n|# token|# tokens} of d_model = {dModel|# number|# numbers}. A Transformer layer does not run one attention but several side by side, called heads.',
  'ch2.heads.split':
    'W_Q has {width|# column|# columns}: {heads|# head|# heads} of d_head = {dHead|# column|# columns} each. X·W_Q is computed as in chapter 1; then head h simply takes its own block of columns (its colour). Keys and values are split the same way.',
  'ch2.heads.kvSame':
    'Here every query head has its own key and value head ({heads} of each): multi-head attention.',
  'ch2.heads.kvShared':
    'Here the {heads|# query head|# query heads} share {kvHeads|# key/value head|# key/value heads}: K and V have fewer columns, and a group of query heads reads the same K/V block.',
  'ch2.formula.split': 'Head h’s queries: X times head h’s block of W_Q columns',
  'ch2.narrate.heads':
    '{heads|# head|# heads} of {dHead|# column|# columns} each; {kvHeads|# key/value head|# key/value heads}. Each head’s block of Q, K and V lands in its colour.',
  'ch2.attention.own':
    'Each head runs chapter 1’s attention with its own queries, keys and values: its own scores, its own softmax, its own weighted sum. The small heatmaps show every head’s scores and weights side by side; darker is larger.',
  'ch2.attention.exampleIntro':
    'The example’s weights were chosen so that the heads look at different things: head 1 matches features 1 and 3, head 2 features 2 and 4, head 3 asks with features 1 and 3 for tokens that have 2 and 4, and head 4 asks for nothing and averages. Each card says what its head attends to.',
  'ch2.attention.yours':
    'With your numbers each card lists, for every query, the key it weighs most, read from the weights the module computed.',
  'ch2.attention.onDemand':
    'Switch “Numbers” on to print every score and weight in its cell; hover or focus a cell for the arithmetic behind it.',
  'ch2.attention.example.1':
    'Head 1 attends to tokens that share features 1 and 3 with it: tokens 1 and 3 spread evenly over tokens 1, 3 and 4, token 4 looks mostly at itself, and token 2 (which has neither) spreads evenly over all.',
  'ch2.attention.example.2':
    'Head 2 attends to token 2, the one with large features 2 and 4: token 2 puts 0.98 on itself, tokens 3 and 4 look mostly at token 2, token 1 (no such features) spreads evenly.',
  'ch2.attention.example.3':
    'Head 3 links tokens across features: tokens 1, 3 and 4 (which have features 1 or 3) all look at token 2, which has features 2 and 4; token 2 asks nothing and spreads evenly.',
  'ch2.attention.example.4':
    'Head 4 has all-zero queries, so every score is 0 and every weight 1/4: it attends to every token equally, an average of the values.',
  'ch2.attention.even': 'q{i} evenly',
  'ch2.attention.readsKv': 'reads K/V head {g}',
  'ch2.attention.scores': 'scores of head {h}',
  'ch2.attention.weights': 'weights of head {h}',
  'ch2.attention.showNumbers': 'Numbers',
  'ch2.formula.head': 'Head h: softmax of its queries times its keys, times its values',
  'ch2.narrate.attention': '{heads|# head|# heads}. Strongest weights: {summary}.',
  'ch2.concat.name': 'heads side by side',
  'ch2.concat.headOutput': 'output of head {h}',
  'ch2.concat.why':
    'Each head gives one output row per token, d_head = {dHead|# number|# numbers}. The {heads|# head|# heads}’ outputs are put side by side, column blocks in the heads’ colours: {width|# number|# numbers} per token.',
  'ch2.concat.noMixing':
    'Nothing is added yet: each block is exactly its head’s output. Mixing what the heads found is the job of the next matrix, W_O.',
  'ch2.formula.concat': 'C: the heads’ outputs side by side',
  'ch2.narrate.concat': '{heads|# head|# heads}’ outputs side by side. Row 1: {row}.',
  'ch2.output.name': 'layer output',
  'ch2.output.why':
    'The concatenation is multiplied by W_O, as X was by W_Q in chapter 1: each output cell is one row of C dotted with one column of W_O. The result has d_model = {dModel|# column|# columns} again, so layers can be stacked.',
  'ch2.output.mix':
    'Every row of W_O reads one column of one head, so each output number can mix what all the heads found.',
  'ch2.formula.output': 'The layer’s output: C times W_O',
  'ch2.narrate.output': 'Y = C·W_O. Row 1: {row}.',
  'ch2.kv.switch': 'Key/value heads',
  'ch2.kv.option': '{kind} · {kv}',
  'ch2.kv.mha': 'MHA',
  'ch2.kv.gqa': 'GQA',
  'ch2.kv.mqa': 'MQA',
  'ch2.kv.kvHead': 'K/V head {g}',
  'ch2.kv.groups': 'Which query heads share each K/V head',
  'ch2.kv.saving':
    'This example caches 2 (a key and a value) × {n|# token|# tokens} × {kvHeads|# K/V head|# K/V heads} × {dHead|# number|# numbers} each = {cached|# number|# numbers}; with one K/V head per query head ({heads}) it would be {mha}. Saved: {saved|# number|# numbers}.',
  'ch2.kv.savingNone':
    'This example caches 2 (a key and a value) × {n|# token|# tokens} × {kvHeads|# K/V head|# K/V heads} × {dHead|# number|# numbers} each = {cached|# number|# numbers}: one K/V head per query head, nothing shared, nothing saved. Choose GQA or MQA to share.',
  'ch2.kv.cacheWhy':
    'When a model writes text, the keys and values of every earlier token are kept (the KV cache, “Decoding with a KV cache”) so they are not recomputed. That cache, not the weights, is what fills memory on long texts.',
  'ch2.kv.explain.mha':
    'Multi-head attention (MHA): each of the {heads|# query head|# query heads} has its own key/value head.',
  'ch2.kv.explain.gqa':
    'Grouped-query attention (GQA): the {heads|# query head|# query heads} are split into {kvHeads|# group|# groups} of {group}; the heads of a group read the same keys and values, so the cache holds {kvHeads|# K/V head|# K/V heads} instead of {heads}.',
  'ch2.kv.explain.mqa':
    'Multi-query attention (MQA): all {heads|# query head|# query heads} read one key/value head; the cache is {group} times smaller than with MHA.',
  'ch2.kv.erases':
    'Sharing has a price: heads {readers} now read the keys and values of heads {owners}, so whatever their own keys picked out is gone and their weights follow the shared keys. In the chapter’s example, head 2 loses its focus on token 2 (“Each head attends” shows each head’s weights).',
  'ch2.kv.tradeoff':
    'Heads of a group still ask their own questions (queries) but look at the same keys, so their patterns may change: compare “Each head attends” before and after switching. Sharing each group keeps the K/V weights of its first head.',
  'ch2.kv.calc.title': 'A real model’s KV cache',
  'ch2.kv.calc.layers': 'layers',
  'ch2.kv.calc.heads': 'query heads',
  'ch2.kv.calc.kvHeads': 'K/V heads',
  'ch2.kv.calc.dHead': 'head size',
  'ch2.kv.calc.tokens': 'tokens',
  'ch2.kv.calc.bytes': 'bytes per number',
  'ch2.kv.calc.bytesOption': '{value} ({name})',
  'ch2.kv.calc.result':
    'KV cache: {cache} per sequence; with one K/V head per query head it would be {mha}. Sharing saves {saved} ({times}× smaller).',
  'ch2.kv.calc.divide': 'The K/V heads ({kvHeads}) must divide the query heads ({heads}).',
  'ch2.formula.cache':
    'Cache size: 2 (keys and values) times layers times tokens times K/V heads times head size times bytes',
  'ch2.narrate.kv':
    '{kind}: {kvHeads|# key/value head|# key/value heads} for {heads|# query head|# query heads}. The cache holds {cached|# number|# numbers} here, {saved} fewer than MHA.',
  'ch2.decode.token': 'token {t}',
  'ch2.decode.new.queries': 'query of token {t}, every head',
  'ch2.decode.new.keys': 'key of token {t}, every K/V head',
  'ch2.decode.new.values': 'value of token {t}, every K/V head',
  'ch2.decode.cache.title': 'KV cache: {length|# token|# tokens}',
  'ch2.decode.cache.keys': 'cached keys, K/V head {g}',
  'ch2.decode.cache.values': 'cached values, K/V head {g}',
  'ch2.decode.scoresRow': 'new row of scores, head {h}',
  'ch2.decode.triangle': 'causal weights of head {h}, rows so far',
  'ch2.decode.outputCached': 'output of head {h}, from the cache',
  'ch2.decode.equal': '= row {t} of full causal attention {full}',
  'ch2.decode.different': '≠ row {t} of full causal attention {full}',
  'ch2.decode.first':
    'Token 1 arrives: its query, key and value are computed, and its key and value start the cache ({length} token).',
  'ch2.decode.arrives':
    'Token {t} arrives: only its own query, key and value are computed; its key and value are appended to the cache, which now holds {length|# token|# tokens}.',
  'ch2.decode.oneRow':
    'Why one new row of scores and not the whole matrix: the rows of earlier tokens were computed at earlier steps and cannot change, because the causal mask hides token {t} from every earlier query; and the earlier keys and values depend only on their own tokens, so they come from the cache. The only new scores are token {t}’s query against the keys so far: row {t} of the causal triangle.',
  'ch2.decode.counts':
    'Multiply-adds for this step: {with} with the cache, {without} recomputing the whole prefix without it ({saved} saved).',
  'ch2.decode.whyRecompute':
    'Why would a decoder without a cache compute the earlier tokens again? A model is a stack of layers: the keys and values of layer 2 are made from layer 1’s outputs, and so on up. Unless they are kept, every new token means running every layer over the whole prefix again to get them back.',
  'ch2.decode.module':
    'Computed by the module’s onnxAttention with past_key / past_value in and present_key / present_value out; its output is checked against row t of the full causal attention from trace().',
  // ---- The module's names, folded under the prose ("For developers") ----
  'explain.developers': 'For developers',
  'ch2.attention.module':
    'Each head’s scores and weights are those of trace({ x, wQuery, wKey, wValue, heads, kvHeads, wOut }): its heads[h].scores and heads[h].weights.',
  'ch2.decode.count.title': 'Multiply-adds of decoding step {t} of {n} (token {t})',
  'ch2.decode.count.with': 'with the cache',
  'ch2.decode.count.without': 'recomputing the prefix',
  'ch2.decode.count.projections': 'projections x·W_Q, x·W_K, x·W_V',
  'ch2.decode.count.scores': 'scores q·k',
  'ch2.decode.count.sums': 'weighted sums Σ a·v',
  'ch2.decode.count.output': 'output projection ·W_O',
  'ch2.decode.count.total': 'total',
  'ch2.formula.decode':
    'Output of token t: softmax of its query against the cached keys 1 to t, times the cached values',
  'ch2.narrate.decode':
    'Token {t}: the cache holds {length|# token|# tokens}; one new row of scores. {with} multiply-adds with the cache, {without} without. Head 1 output {output}; {check}',
  'ch2.narrate.decodeEqual': 'every head equals full causal attention.',
  'ch2.narrate.decodeDifferent': 'a head differs from full causal attention.',
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
  'tools.ask.cacheNumbers':
    'After token {t}, how many numbers does this layer’s KV cache hold, keys and values together?',
  'tools.hint.cacheTitle': 'The cache keeps a key and a value for every token so far, per KV head.',
  'tools.hint.cacheNumbers':
    '2 (key and value) × {tokens|# token|# tokens} × {kvHeads|# KV head|# KV heads} × {dHead|# number|# numbers} each = ?',
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

  // Chapter 3 (where the weights come from): the chapter and stage "Order"
  'chapter.learning': 'Chapter 3 · Where the weights come from',
  'stage.order': 'Order and positions',
  'ch3.title.shuffle': 'Shuffle the tokens: the outputs only move',
  'ch3.order.inputs': 'inputs',
  'ch3.order.outputs': 'outputs',
  'ch3.order.attention': 'self-attention',
  'ch3.order.shuffle': 'Shuffle',
  'ch3.order.same':
    'Every row of Y′ is a row of Y, moved with its token: the largest difference is {gap}.',
  'ch3.order.why':
    'Nothing in chapter 1 said where a token is: each query is dotted with every key, and each output is a weighted sum over all the values, whatever their order.',
  'ch3.order.result':
    'Here the tokens come in the order {tokens}. Each output is the same row as before, in its token’s new place.',
  'ch3.order.noOrder':
    'So self-attention alone cannot tell “dog bites man” from “man bites dog”: it treats its input as a set.',
  'ch3.formula.permute': 'Permuting the inputs permutes the outputs',
  'ch3.narrate.shuffle':
    'The tokens in the order {tokens}: the outputs are the same rows, in the same new order.',

  // Chapter 3, stage "One learning step"
  'stage.learn': 'One learning step',
  'ch3.title.target': 'A target for output 1, and how wrong it is',
  'ch3.title.learn-outputs': 'Backwards 1: how the loss changes with each output',
  'ch3.title.learn-attention': 'Backwards 2: …with each attention weight',
  'ch3.title.learn-scores': 'Backwards 3: through the softmax, to the scores',
  'ch3.title.learn-qkv': 'Backwards 4: to the queries, keys and values',
  'ch3.title.learn-weights': 'Backwards 5: to the weights W_Q, W_K, W_V',
  'ch3.title.update': 'The step: W ← W − η·∂L/∂W, and the forward pass again',
  'ch3.learn.gradient': 'gradient',
  'ch3.learn.name.values': 'values',
  'ch3.learn.name.weights': 'attention weights',
  'ch3.learn.output1': 'output 1',
  'ch3.learn.target': 'target t',
  'ch3.learn.targetName': 'target',
  'ch3.learn.targetEntry': 'Target, entry {c}',
  'ch3.learn.targetInvalid':
    'Target entry {c}: expected a number between −1000 and 1000, given “{given}”.',
  'ch3.learn.suggestion': 'Use the suggested target',
  'ch3.learn.loss': 'L = ½·[{terms}] = {loss}',
  'ch3.learn.why':
    'Chapters 1 and 2 took W_Q, W_K and W_V as given. A model finds them by learning: it measures how wrong an output is, and nudges every weight the way that makes it less wrong.',
  'ch3.learn.suggest':
    'The page suggests, as output 1’s target, the value of the token query 1 attends to least: getting there needs the attention to move, not only the values. Type any other target.',
  'ch3.learn.lossWhy':
    'The loss is the squared error, halved so that its gradient is simply o₁ − t.',
  'ch3.formula.loss': 'The loss: half the squared distance from output 1 to its target',
  'ch3.narrate.target': 'Output 1 against its target: the loss is {loss}.',
  'ch3.learn.gradOutputs':
    'Start at the end. The loss reads output 1 only, so its gradient is o₁ − t in row 1 and zero elsewhere: positive where output 1 is too large.',
  'ch3.learn.backwards':
    'Now walk chapter 1’s stages in reverse. Hover over a cell (or Tab to it) to see its arithmetic.',
  'ch3.learn.gradWeights':
    'Output 1 is a₁₁v₁ + a₁₂v₂ + a₁₃v₃, so raising a₁ⱼ moves it along vⱼ: the gradient of a₁ⱼ is ∂L/∂o₁ dotted with vⱼ. Positive means “give this key less weight”; when all three are positive, only their differences count, since the weights must still sum to 1: the softmax, next, sorts that out.',
  'ch3.learn.gradScores':
    'The weights come from the scores through the softmax, and each weight depends on every score of its row (they share the sum).',
  'ch3.learn.jacobian':
    'Multiplying by the softmax’s row Jacobian comes down to a ∘ (g − a·g): each weight’s gradient minus the row’s average, scaled by the weight. A row of gradients therefore sums to 0.',
  'ch3.learn.gradQkv':
    'A score is qᵢ·kⱼ, so its gradient flows to query i along kⱼ and to key j along qᵢ. Values get the output gradients, weighted by the attention they received.',
  'ch3.learn.gradW':
    'Q = X·W_Q, so ∂L/∂W_Q = Xᵀ·∂L/∂Q: each input’s features times its query’s gradient, summed over the tokens. Likewise W_K and W_V.',
  'ch3.formula.learn-outputs': 'The gradient of the loss with respect to output 1',
  'ch3.formula.learn-attention': 'An output is a weighted sum of values',
  'ch3.formula.learn-scores': 'The softmax’s row Jacobian, applied to g = ∂L/∂aᵢ',
  'ch3.formula.learn-qkv': 'Scores are Q·Kᵀ',
  'ch3.formula.learn-weights': 'Queries are X·W_Q',
  'ch3.narrate.learn-outputs': 'The gradient of the loss with respect to the outputs.',
  'ch3.narrate.learn-attention': 'The gradient with respect to the attention weights.',
  'ch3.narrate.learn-scores': 'Through the softmax to the scores.',
  'ch3.narrate.learn-qkv': 'To the queries, keys and values.',
  'ch3.narrate.learn-weights': 'To the weight matrices.',
  'ch3.learn.before': 'before',
  'ch3.learn.after': 'after {steps|one step|# steps}',
  'ch3.learn.distance':
    'Output 1 is now ‖o₁′ − t‖ = {distance} from its target (it started {start} away).',
  'ch3.learn.more': 'Take 10 more steps',
  'ch3.learn.reset': 'Back to one step',
  'ch3.learn.status': 'After {steps|# step|# steps}: loss {before} → {loss}.',
  'ch3.learn.plot': 'Loss after each step',
  'ch3.learn.plotCaption': 'Loss after each step: {first} → {last}',
  // The weights' names in chapters 2 and 3 (their editors), in those chapters' words.
  'matrix.later.wQuery': 'query weights',
  'matrix.later.wKey': 'key weights',
  'matrix.later.wValue': 'value weights',
  'ch3.learn.update':
    'Every step moves every weight against its gradient, η = {eta} times it ({steps|one step|# steps} here; the weights shown are those after the last). Hover over a weight to see its old value, its gradient and its new value.',
  'ch3.learn.moved':
    'Run the forward pass again with the new weights: after {steps|this one step|these # steps} output 1 is nearer its target, and the loss falls from {before} to {after}.',
  'ch3.learn.repeat':
    'That is all training is: this step, repeated over millions of examples (a batch at a time), each nudging the weights a little.',
  'ch3.formula.update': 'Gradient descent: one step against the gradient',
  'ch3.narrate.update': 'After {steps|one step|# steps} output 1 is {row}; the loss is {after}.',
  // ---- Chapter 3 · the learning step's loss chart and its divergence ----
  'ch3.learn.plotSteps': 'steps taken',
  'ch3.learn.plotLoss': 'loss',
  'ch3.learn.movedUp':
    'Run the forward pass again with the new weights: after {steps|this one step|these # steps} the loss has not fallen but risen, from {before} to {after}: the steps diverged (below the buttons).',
  'ch3.learn.rising': 'The steps diverged: from step {step} on, the loss grows instead of falling.',
  'ch3.learn.overflow':
    'The steps diverged: the loss grew from step {step} on, until the next step’s numbers would no longer fit in a float (∞, then NaN), so the page stopped before it.',
  'ch3.learn.divergedWhy':
    'Why: each step is too long for this gradient. Here ‖∂L/∂W‖ = {gradient}, so one step of η = {eta} times it moves the weights by {length}, while the weights themselves measure ‖W‖ = {weights}. The step jumps far past the lowest loss, to where the gradient is larger still, and the next jump is longer. Smaller numbers (inputs, target) or a smaller η keep the steps short.',

  // Chapter 3, stage "Order and positions": positions and RoPE
  'ch3.title.positions': 'Positions added to X: now order matters',
  'ch3.title.rope': 'RoPE: each (q, k) pair turned by m·θ',
  'ch3.title.distance': 'With RoPE, a score depends on the distance',
  'ch3.order.positions': 'position vectors',
  'ch3.positions.differ':
    'Now Y′ is not Y permuted: a row differs from its token’s old output by up to {gap}.',
  'ch3.positions.add':
    'The usual fix is to tell each token where it is: add a position vector to each row of X, one vector per place (the same place gets the same vector, whichever token is there).',
  'ch3.positions.result':
    'The same tokens in another order now meet other position vectors, so their queries, keys and values change, and so do the outputs. (Positions change the outputs in the article’s order too, by up to {changed}.)',
  'ch3.positions.learned':
    'In a model such as GPT-2 these vectors are learned like any weight; the page uses 0.5 in one feature per place, to be easy to read.',
  'ch3.formula.positions': 'Learned positions: a vector added to each input',
  'ch3.narrate.positions':
    'With positions added the shuffled outputs differ from the permuted ones by up to {gap}.',
  'ch3.rope.turned': 'columns 1–2, turned to position m',
  'ch3.rope.axis': 'column {c}',
  'ch3.rope.legendQuery': 'query {i}',
  'ch3.rope.legendKey': 'key {j}',
  'ch3.rope.lengths':
    'Only the angle matters: each arrow is drawn at a fixed length of its own (the key’s shorter), not the length of its pair.',
  'ch3.rope.picture':
    'The first pair of the query and of the key as arrows, each turned by its position times θ',
  'ch3.rope.position': 'position m = {m}',
  'ch3.rope.what':
    'RoPE (rotary position embedding, used by Llama and most models since) adds nothing to X. It turns each pair of numbers of every query and key by an angle: position m times θ.',
  'ch3.rope.pair':
    'Here d_k = 3, so the page turns one pair, columns 1 and 2, with θ = 1 radian per position (real models turn every pair, each with its own θ), and leaves column 3 as it is.',
  'ch3.rope.module':
    'The numbers are onnxRotaryEmbedding’s, the module’s ONNX RotaryEmbedding operator, with caches from rotaryCaches.',
  'ch3.formula.rope': 'RoPE: the pair turned by the angle m·θ',
  'ch3.narrate.rope': 'The query’s and the key’s first pair, turned by their position.',
  'ch3.rope.scores': 'scores with RoPE',
  'ch3.rope.plain': 'Without positions this score is {score} wherever the two tokens are.',
  'ch3.rope.distance':
    'The same two tokens (query 1 and key 2) at distances 0 to 4: each row puts the query at a position m ({starts}) and the key d places later. The score changes with d.',
  'ch3.rope.relative':
    'The two rows are equal: turning both vectors by the same angle does not change their dot product, so only the difference of the angles, the distance, counts. That is why RoPE is called relative.',
  'ch3.rope.noPair':
    'RoPE turns pairs of numbers: with d_k = 1 (or a single token) there is no pair to turn. Give the example 2 or more key columns and 2 or more tokens.',
  'ch3.formula.relative': 'Only the distance n − m counts',
  'ch3.narrate.distance': 'With RoPE the score of the same two tokens changes with their distance.',

  // Chapter 3, stage "The rest of the block"
  'stage.block': 'The rest of the block',
  'ch3.title.block-residual': 'The residual connection: X + attention(X)',
  'ch3.title.block-norm': 'LayerNorm: each row to mean 0, spread 1',
  'ch3.title.block-mlp': 'The MLP, and a second residual',
  'ch3.block.name.x': 'inputs',
  'ch3.block.name.y': 'attention’s output',
  'ch3.block.name.residual': 'residual sum',
  'ch3.block.name.normed': 'normalised',
  'ch3.block.name.hidden': 'hidden (after ReLU)',
  'ch3.block.name.mlp': 'MLP output',
  'ch3.block.name.output': 'block output',
  'ch3.block.name.w1': 'MLP weights in (d → hidden)',
  'ch3.block.name.w2': 'MLP weights out (hidden → d)',
  'ch3.block.where':
    'Attention is one part of a Transformer block. These are chapter 2’s numbers: its layer’s output Y already has X’s shape (W_O brought it back to d_model columns).',
  'ch3.block.residual':
    'The block adds Y to X instead of replacing X: attention only has to learn a change to each token, and the gradient reaches the layers below through the + unchanged.',
  'ch3.block.why': 'Hover over a cell of R to see its sum.',
  'ch3.block.norm':
    'LayerNorm rescales each token’s row to mean 0 and standard deviation 1 (then a learned scale and shift, here 1 and 0), so the numbers stay in a range the next layer can use, however many blocks are stacked.',
  'ch3.block.normWhy':
    'Models such as GPT-2 normalise before each part (pre-norm): here, before the MLP.',
  'ch3.block.mlp':
    'The MLP works on each token alone: W₁ turns its {d} numbers into {hidden} hidden ones (real models use 4 times d), a ReLU keeps the positive ones, and W₂ brings them back to {d}. Both weight matrices are in the row; here they are chosen to be readable, a model learns them.',
  'ch3.block.second':
    'A second residual adds the MLP’s output to R: Z is the block’s output. Attention moves information between tokens; the MLP transforms each token on its own.',
  'ch3.block.stack':
    'Z has exactly X’s shape, so it can be the next block’s X: that is why blocks stack, and the model trained later in this chapter uses two of them.',
  'ch3.block.noShape':
    'The rest of the block needs the layer’s output to have the inputs’ shape: give chapter 2’s layer W_O with d_model columns.',
  'ch3.formula.residual': 'The residual connection',
  'ch3.formula.norm': 'LayerNorm of a row r: mean μ, standard deviation σ',
  'ch3.formula.mlp': 'The MLP, with its residual',
  'ch3.narrate.residual': 'The residual connection: the inputs plus attention’s output.',
  'ch3.narrate.norm': 'LayerNorm: each row to mean zero and standard deviation one.',
  'ch3.narrate.mlp': 'The MLP on each token, and the second residual: the block’s output.',

  // Chapter 3: Predict
  'ch3.ask.scoreSign':
    'Is ∂L/∂s₁{sj}, the gradient of query 1’s score for key {j}, positive or negative? Type 1 or −1.',
  'ch3.hint.scoreSign':
    'Through the softmax: ∂L/∂s₁{sj} = a₁{sj}·(∂L/∂a₁{sj} − a₁·∂L/∂a₁). Compare ∂L/∂a₁{sj} with the row’s weighted average.',
  'ch3.hint.signTyping': 'Type 1 for positive (or up), −1 for negative (or down).',
  'ch3.ask.direction':
    'After the step, does W_V’s entry (row {r}, column {c}) go up or down? Type 1 for up, −1 for down.',
  'ch3.hint.direction': 'Its gradient is {grad}, and the step subtracts η times the gradient.',
  'ch3.ask.shuffled':
    'With the tokens shuffled, token {token} comes first. What is entry 1 of the first output row?',
  'ch3.hint.shuffled':
    'The first row of X′ is token {token}: its output is the same as in the article’s order, y{token}.',

  // Chapter 3: the cell inspector's titles
  'ch3.inspect.grad': 'A gradient, from the one after it',
  'ch3.inspect.learn': 'The weight after one step: w − η·∂L/∂w',
  'ch3.inspect.later': 'after {steps} steps: {value}',
  'ch3.inspect.block': 'This cell’s arithmetic',
  // ---- Chapter 3 · stage "train" (train a tiny model live) ----
  'stage.train': 'Train a tiny model live',
  'ch3.title.train': 'Training a tiny model on the induction task',
  'ch3.narrate.train':
    'Press Train: a tiny model learns to continue a repeated run of letters. Watch the loss sit on a plateau, then drop.',
  'ch3.train.explain':
    'Each row is random letters, a run of letters, the same run again, more random letters. Inside the repeat the next letter is predictable, but only by finding where the current letter came before and copying what followed it. Training is the learning step of this chapter repeated: here up to {steps} times, on {batch} rows each.',
  'ch3.train.task':
    'The task, in letters: random letters, a run (underlined), the same run again (bold), more random letters. The run’s length and place change from row to row. Every row starts with ⟨s⟩, a start token that is no letter.',
  'ch3.train.rowLabel':
    'A row: a run of {n|# letter|# letters} after {p|# random letter|# random letters}, then the run again',
  'ch3.train.train': 'Train',
  'ch3.train.pause': 'Pause',
  'ch3.train.reset': 'Reset',
  'ch3.train.positions': 'Positions',
  'ch3.train.positions.rope': 'RoPE',
  'ch3.train.positions.learned': 'Learned',
  'ch3.train.positions.none': 'None',
  'ch3.train.layers': 'Layers',
  'ch3.train.heads': 'Heads per layer',
  'ch3.train.seed': 'Seed',
  'ch3.train.speed': 'Training speed',
  'ch3.train.speed.fast': 'Fast: 50 steps between redraws',
  'ch3.train.speed.slow': 'Slow: 10 steps, then a ¼ s pause',
  'ch3.train.ready': 'Ready: press Train.',
  'ch3.train.starting': 'Starting the worker…',
  'ch3.train.status': 'step {step} · loss {loss}',
  'ch3.train.failed': 'Training stopped: {reason}',
  'ch3.train.curveLabel': 'The loss at every training step',
  'ch3.train.axisSteps': 'training steps',
  'ch3.train.dropMark': 'drop at step {step}',
  'ch3.train.dropped': 'The loss dropped at step {step}, {seconds} s after Train.',
  'ch3.train.droppedHeads':
    'The loss dropped at step {step}, {seconds} s after Train. Now layer {prevLayer}’s head {prevHead} looks at the previous token ({prev} of its weight), and layer {layer}’s head {head} at the token after the earlier copy of the current one: {before} of its weight before the drop, {after} after. Together they are an induction head.',
  'ch3.train.why.two':
    'Two layers: a head of layer 1 can copy each token’s previous token into it, and a head of layer 2 can then look for “the token whose previous token is mine”. That is the induction head; it forms suddenly, and the loss drops with it.',
  'ch3.train.why.oneLayer':
    'One layer cannot learn it: an induction head looks for the key whose previous token is the current one, and a key carries its previous token only once a head of an earlier layer has copied it in. Positions (RoPE, learned or none) tell a head where a token is, not which token came before it. The loss stays high: what one layer can learn (which letters are common, which have already appeared in this row) takes only part of it.',
  'ch3.train.gone':
    'A new model from the seed: the trained one ({step|# step|# steps}) is gone. To keep a model, copy its link or save its parameters before changing a switch.',
  'ch3.train.why.none':
    'Without positions attention cannot tell order (the first stage of this chapter): no head can look straight at “the token just before me”. A token can only roughly tell how far it is from the start (under the causal mask it sees how many tokens came before it), so the model learns slowly and only in part: no sudden drop.',
  'ch3.train.headsTitle':
    'Every head’s attention on one held-out row (rows: queries, columns: keys; letters along both edges), and what each head does',
  'ch3.train.headName': 'Layer {layer} · head {head}',
  // ---- Chapter 3 · what a head reads as (model/head-reading.mjs), the tiny model, its loss ----
  'ch3.read.previous': 'previous token: {share} of its weight on the token just before',
  'ch3.read.induction':
    'induction: {share} of its weight on the token after the earlier copy of the current one',
  'ch3.read.copy': 'earlier copy: {share} of its weight on the earlier copy of the current token',
  'ch3.read.fixed': 'fixed token: {share} of its weight on {token}, wherever it stands',
  'ch3.read.self': 'itself: {share} of its weight on the current token',
  'ch3.read.diffuse': 'diffuse: spread over about {keys} tokens, none of them favoured',
  'ch3.read.mixed':
    'no single pattern: each query looks at about {keys} tokens, but not the same kind of token',
  'ch3.kind.previous': 'previous token',
  'ch3.kind.induction': 'induction',
  'ch3.kind.copy': 'earlier copy',
  'ch3.kind.fixed': 'fixed token {token}',
  'ch3.kind.self': 'itself',
  'ch3.kind.diffuse': 'diffuse',
  'ch3.kind.mixed': 'no single pattern',
  'ch3.tables.reads': 'reads as',
  'ch3.train.droppedInduction':
    'The loss dropped at step {step}, {seconds} s after Train. Now layer {layer}’s head {head} looks at the token after the earlier copy of the current one: {before} of its weight before the drop, {after} after. No head reads as a previous-token head in a layer below it.',
  'ch3.train.model':
    'The model: {layers|# layer|# layers} of self-attention with {heads|# head|# heads} each, d_model = {dModel} (each head works on {dHead} of those numbers), and no MLP. It holds {parameters} parameters: an embedding of each of its {vocab} tokens, per layer a LayerNorm and W_Q, W_K, W_V, W_O, a last LayerNorm, and the unembedding that turns a row into {vocab} logits{positions}.',
  'ch3.train.model.rope': ' (RoPE turns queries and keys by position and adds no parameters)',
  'ch3.train.model.learned': ', plus a learned position vector for each of its {context} places',
  'ch3.train.model.none': ' (no positions at all)',
  'ch3.train.loss':
    'Training lowers the cross-entropy of the next token. At each place t the model gives every token a probability, the softmax of its logits; the loss is minus the log of the probability it gave the token that really comes next, averaged over the N places that count (inside the repeat, where the next letter can be known). A uniform guess over 16 tokens scores ln 16 ≈ 2.77; a sure right guess, 0.',
  'ch3.formula.crossEntropy':
    'Cross-entropy of the next token: minus the mean log-probability of each true next token',
  'ch3.heads.noInductionHead':
    'The model predicts {token} next. This model has no induction head: on the held-out row of the previous stage, no head puts most of its weight on the token after the earlier copy of the current one. So no head copies what followed an earlier copy; the prediction comes from what this model did learn.',
  'ch3.heads.relation.afterCopy': 'the token after the earlier {last}',
  'ch3.heads.relation.copy': 'the earlier {last} itself, not the token after it',
  'ch3.heads.relation.previous': 'the token just before {last}',
  'ch3.heads.relation.self': 'the last token itself',
  'ch3.heads.relation.start': 'the start token ⟨s⟩',
  'ch3.heads.relation.other': 'neither the earlier {last} nor the token after it',
  'ch3.heads.copies':
    'The prediction is that very letter: the model copies what followed the earlier {last}.',
  'ch3.heads.notCopied':
    'Yet the model predicts {token}, not the {key} it looks at: this head alone does not decide it.',
  'ch3.heads.every':
    'Every head on your sequence, each under what it does (read on the held-out row, as in the previous stage)',
  // ---- Chapter 3 · stage "heads-learned" (what the heads learned) ----
  'stage.heads-learned': 'What the heads learned',
  'ch3.title.heads': 'The trained heads on your sequence',
  'ch3.narrate.heads':
    'Type a sequence: the heads the previous stage names as the previous-token head and the induction head show where each token looks, and the model continues the sequence.',
  'ch3.heads.explain':
    'A line joins each token (left) to the tokens it attends to (right); the thicker the line, the larger the weight. The model is the one trained in the previous stage, as it is now. Which head does what is read there, on its held-out row, so both stages name the same previous-token head and the same induction head; here they read your sequence.',
  'ch3.heads.inputLabel': 'Your sequence (letters A to O)',
  'ch3.heads.help': 'For example A B C D A B C: spaces are optional.',
  'ch3.heads.emptyInput': 'Type at least one letter.',
  'ch3.heads.badLetter': 'Only the letters A to O are tokens of this model, not “{letter}”.',
  'ch3.heads.tooLong': 'At most {most} letters fit in the model’s context.',
  'ch3.heads.untrained':
    'Train the model in the previous stage first: an untrained model has no heads worth showing.',
  'ch3.heads.previous':
    'Previous-token head: each token gives {score} of its weight, on average, to the token just before it.',
  'ch3.heads.induction':
    'Induction head: each repeated token gives {score} of its weight, on average, to the token after its earlier copy.',
  'ch3.heads.noRepeat':
    'No letter repeats in your sequence, so there is nothing for an induction head to find.',
  'ch3.heads.prediction':
    'The model predicts {token} next. Its induction head, layer {layer}’s head {head}, looks from the last token at {key} (position {position}, weight {weight}): {what}.',
  'ch3.heads.predictionNoCopy':
    'The model predicts {token} next. The last token, {last}, has not appeared before, so no head can copy what followed it: this prediction is a guess.',
  'ch3.heads.decoding':
    'Decoding token by token with the KV cache (the model after {step|# step|# steps}):',
  'ch3.ask.inductionNext':
    'In ⟨s⟩ {sequence}, counting ⟨s⟩ as position 0: which position does an induction head attend to from the last token?',
  'ch3.ask.waitTrained':
    'Predict asks here once the model is trained: train it in the previous stage (“Train a tiny model live”), then come back.',
  'ch3.hint.inductionTitle': 'An induction head looks for the earlier copy of the current token.',
  'ch3.hint.inductionNext':
    'Find the earlier C; the head looks at the token right after it. Its position is ?',
  'ch3.train.loaded': 'Loaded a model trained for {step|# step|# steps}: press Train to go on.',
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
  'ch3.heads.loading': 'Loading the trained model from the link…',
  'ch3.panels.title': 'This step’s numbers',
  'ch3.panels.order':
    'The order stage’s numbers: X in its own order and shuffled (X′) and their outputs, the position vectors P, and both again with P added. They come from your X and weights below.',
  'ch3.panels.learn':
    'The learning step’s numbers: the gradient of the loss for every matrix, from ∂L/∂O back to ∂L/∂W_Q, ∂L/∂W_K and ∂L/∂W_V, and the weights after the step. They come from your X, weights and target.',
  'ch3.panels.block':
    'The block’s numbers: chapter 2’s layer input X and output Y, the residual sum, LayerNorm, the MLP (its weights W₁ and W₂) and the block’s output. Edit the layer in chapter 2’s editors below.',
  'ch3.panels.train':
    'The training run’s numbers, as it trains: the loss every 100 steps, and what each head does on the held-out row of the latest snapshot (its mean weight on the previous token, on the token after the current token’s earlier copy, and what it reads as). The switches are in the scene; save every step’s loss (CSV) and the parameters (JSON, or a link) from there.',
  'ch3.tables.loss': 'loss',
  'ch3.tables.lossColumn': 'loss',
  'ch3.tables.noSteps': 'No training steps yet: press Train in the scene.',
  'ch3.tables.heads': 'each head’s mean weight, at step {step}',
  'ch3.tables.previous': 'previous token',
  'ch3.tables.induction': 'after the earlier copy',
  'ch3.tables.noHeads': 'The heads’ weights come with the first snapshot of this model.',
  'ch3.panels.heads':
    'The trained heads are read on your sequence in the scene: where each token looks, the prediction and the decoded tokens. The model is the one trained (or loaded) in the previous stage; nothing here changes it.',
  // ---- Chapter 3 · every head's heatmap as files (tools/export/heatmaps.mjs) ----
  'ch3.files.heatmaps.png': 'Heatmaps (PNG)',
  'ch3.files.heatmaps.svg': 'Heatmaps (SVG)',
  'ch3.files.heatmaps.csv': 'Every head’s weights (CSV)',
  'ch3.files.heatmaps.after': 'After {step|# training step|# training steps}',
  // ---- Chapter 3 · the failing models told as failing (model/plateau.mjs) ----
  'ch3.fail.oneLayer':
    'After {step|# step|# steps} there has been no drop: the loss is still {loss}, where two layers drop to almost 0 within several hundred steps. One layer cannot learn the task: an induction head looks for the token whose previous token is the current one, and a key holds its previous token only if a head of an earlier layer has written it there. One layer has no earlier layer; what it can learn (which letters are frequent, which came earlier in the row) lowers the loss only part of the way.',
  'ch3.fail.none':
    'After {step|# step|# steps} there has been no sudden drop: the loss has only crept down to {loss}, where the same two layers with RoPE or learned positions drop to almost 0 within several hundred steps. Without positions no head can ask for “the token just before me”. All a token can tell is roughly how far it is from the start (under the causal mask it sees how many tokens came before it): a blurred position, which the model learns slowly and only in part.',
  // --- Page layout, phones and cost (round 4): the real model named, the length slider, touch
  'ch2.kv.calc.named': 'A real model’s KV cache: {name}',
  'ch2.kv.calc.yours': 'A real model’s KV cache: your sizes (they started as {name}’s)',
  'ch2.kv.calc.product':
    '2 (a key and a value) × {layers} layers × {tokens} tokens × {kvHeads} K/V heads × {dHead} numbers each × {bytes} bytes a number ({type}) = {total} bytes',
  'ch2.formula.keysValues': 'K and V',
  'ch2.formula.bytesEach': 'per number: 2 in float16',
  'ch2.length.title': 'How the cost grows with the length n',
  'ch2.length.slider': 'Tokens n',
  'ch2.length.tokens': '{n|# token|# tokens}',
  'ch2.length.example':
    'This layer: 1 layer, {heads} query heads and {kvHeads} K/V heads of {dHead}, float32 (4 bytes a number)',
  'ch2.length.model':
    '{name}: {layers} layers, d_model {dModel}, {heads} query heads sharing {kvHeads} K/V heads of {dHead}, bfloat16 (2 bytes a number)',
  'ch2.length.attention': 'Attention (scores and weighted sums): {count} multiply-adds',
  'ch2.length.cache': 'KV cache: {size} ({bytes} bytes)',
  'ch2.length.growth': 'From {n} to {double} tokens: attention ×{attention}, the cache ×{cache}.',
  'ch2.length.why':
    'Attention grows with n²: each of the n tokens is compared with every token before it, 1 + 2 + … + n pairs per head and layer. The cache grows with n: one key and one value per token. Doubling the text nearly quadruples attention’s work and doubles the cache.',
  'tables.intro.touch':
    'Every matrix of the computation as a plain table. Tap a computed cell to see its arithmetic.',
  'ch2.attention.onDemand.touch':
    'Switch “Numbers” on to print every score and weight in its cell; tap a cell for the arithmetic behind it.',
  'ch3.learn.backwards.touch':
    'Now walk chapter 1’s stages in reverse. Tap a cell to see its arithmetic.',
  'ch3.learn.update.touch':
    'Every weight moves a little against its gradient: η = {eta} times it. Tap a weight to see its old value, its gradient and its new value.',
  'ch3.block.why.touch': 'Tap a cell of R to see its sum.',
  'stages.toggle': 'Stage {stage} of {total}: {name}',
  'transport.ticksOpen': 'Stages: open the list of stages',
  'app.scrollCue': 'This scene is wider than the screen: swipe it sideways to see the rest →',
};
