// The sentences of order.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.order': 'Order and positions',
    'ch3.title.shuffle': 'Shuffle the tokens: the outputs only move',
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
    'ch3.title.positions': 'Positions added to X: now order matters',
    'ch3.title.rope': 'RoPE: each (q, k) pair turned by m·θ',
    'ch3.title.distance': 'With RoPE, a score depends on the distance',
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
    'ch3.rope.lengths':
      'Only the angle matters: each arrow is drawn at a fixed length of its own (the key’s shorter), not the length of its pair.',
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
    'ch3.narrate.distance':
      'With RoPE the score of the same two tokens changes with their distance.',
    'ch3.ask.shuffled':
      'With the tokens shuffled, token {token} comes first. What is entry 1 of the first output row?',
    'ch3.hint.shuffled':
      'The first row of X′ is token {token}: its output is the same as in the article’s order, y{token}.',
    'ch3.panels.order':
      'The order stage’s numbers: X in its own order and shuffled (X′) and their outputs, the position vectors P, and both again with P added. They come from your X and weights below.',
  },
  zh: {
    'stage.order': '顺序与位置',
    'ch3.title.shuffle': '打乱词元：输出只是跟着换位置',
    'ch3.order.attention': '自注意力',
    'ch3.order.shuffle': '打乱',
    'ch3.order.same': 'Y′ 的每一行都是 Y 的某一行，随它的词元一起移动：最大差值为 {gap}。',
    'ch3.order.why':
      '第一章里没有任何东西说明词元在哪个位置：每个查询都与所有键做点积，每个输出都是所有值的加权和，与它们的顺序无关。',
    'ch3.order.result':
      '这里词元的顺序是 {tokens}。每个输出都和原来同一行，只是到了它的词元的新位置。',
    'ch3.order.noOrder': '所以单靠自注意力分不清“狗咬人”和“人咬狗”：它把输入当作一个集合。',
    'ch3.formula.permute': '输入换顺序，输出跟着换顺序',
    'ch3.narrate.shuffle': '词元顺序为 {tokens}：输出还是那些行，按同样的新顺序排列。',
    'ch3.title.positions': '给 X 加上位置：顺序开始起作用',
    'ch3.title.rope': 'RoPE：每对 (q, k) 转过 m·θ',
    'ch3.title.distance': '有了 RoPE，分数取决于距离',
    'ch3.positions.differ': '现在 Y′ 不再是 Y 换了顺序：某一行与它的词元原来的输出最多相差 {gap}。',
    'ch3.positions.add':
      '常见的做法是告诉每个词元它在哪里：给 X 的每一行加上一个位置向量，每个位置一个（同一位置总是同一个向量，无论那里是哪个词元）。',
    'ch3.positions.result':
      '同样的词元换了顺序，就会遇到别的位置向量，于是它们的查询、键和值都变了，输出也变了。（按原文顺序，位置也让输出最多变化 {changed}。）',
    'ch3.positions.learned':
      '在 GPT-2 这样的模型里，这些向量和其他权重一样是学出来的；页面为了易读，每个位置在一个特征上取 0.5。',
    'ch3.formula.positions': '学习的位置：给每个输入加一个向量',
    'ch3.narrate.positions': '加上位置后，打乱后的输出与换序后的输出最多相差 {gap}。',
    'ch3.rope.turned': '第 1–2 列，转到位置 m',
    'ch3.rope.lengths':
      '只有角度有意义：每个箭头按自己固定的长度画出（键的短一些），不是这对数的长度。',
    'ch3.rope.what':
      'RoPE（旋转位置编码，Llama 及之后的大多数模型都在用）不往 X 上加任何东西。它把每个查询和键的每一对数旋转一个角度：位置 m 乘以 θ。',
    'ch3.rope.pair':
      '这里 d_k = 3，所以页面只旋转一对，即第 1、2 列，每个位置 θ = 1 弧度（真实模型旋转每一对，各有自己的 θ），第 3 列保持不变。',
    'ch3.rope.module':
      '这些数来自模块的 ONNX RotaryEmbedding 算子 onnxRotaryEmbedding，余弦、正弦表来自 rotaryCaches。',
    'ch3.formula.rope': 'RoPE：把一对数旋转 m·θ',
    'ch3.narrate.rope': '查询和键的第一对数，按各自的位置旋转。',
    'ch3.rope.scores': '带 RoPE 的分数',
    'ch3.rope.plain': '没有位置时，无论两个词元在哪里，这个分数都是 {score}。',
    'ch3.rope.distance':
      '同样两个词元（查询 1 和键 2），距离为 0 到 4：每一行把查询放在位置 m（{starts}），键放在其后 d 个位置。分数随 d 变化。',
    'ch3.rope.relative':
      '两行完全相同：两个向量旋转同样的角度，点积不变，所以只有角度之差，即距离，才起作用。这就是 RoPE 被称为相对位置编码的原因。',
    'ch3.rope.noPair':
      'RoPE 旋转的是成对的数：d_k = 1（或只有一个词元）时没有可旋转的对。请给例子 2 个以上的键列和 2 个以上的词元。',
    'ch3.formula.relative': '只有距离 n − m 起作用',
    'ch3.narrate.distance': '有了 RoPE，同样两个词元的分数随距离变化。',
    'ch3.ask.shuffled': '打乱词元后，词元 {token} 排在第一。第一个输出行的第 1 项是多少？',
    'ch3.hint.shuffled': 'X′ 的第一行是词元 {token}：它的输出与原文顺序时相同，即 y{token}。',
    'ch3.panels.order':
      '顺序阶段的数字：原顺序的 X 与打乱后的 X′ 及它们的输出、位置向量 P，以及加上 P 之后的两者。它们由下面你的 X 和权重算出。',
  },
};
