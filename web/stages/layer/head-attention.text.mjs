// The sentences of head-attention.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.headAttention': 'Each head attends',
    'ch2.title.attention': 'Every head attends on its own',
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
    'ch2.attention.showNumbers': 'Numbers',
    'ch2.formula.head': 'Head h: softmax of its queries times its keys, times its values',
    'ch2.narrate.attention': '{heads|# head|# heads}. Strongest weights: {summary}.',
    'ch2.attention.module':
      'Each head’s scores and weights are those of trace({ x, wQuery, wKey, wValue, heads, kvHeads, wOut }): its heads[h].scores and heads[h].weights.',
    'ch2.attention.onDemand.touch':
      'Switch “Numbers” on to print every score and weight in its cell; tap a cell for the arithmetic behind it.',
  },
  zh: {
    'stage.headAttention': '每个头各自注意',
    'ch2.title.attention': '每个头各自计算注意力',
    'ch2.attention.own':
      '每个头用自己的查询、键和值做第一章的注意力：自己的分数、自己的 softmax、自己的加权和。小热力图把每个头的分数和权重并排显示；颜色越深数越大。',
    'ch2.attention.exampleIntro':
      '例子的权重是特意选的，让各个头看不同的东西：头 1 匹配特征 1 和 3，头 2 匹配特征 2 和 4，头 3 用特征 1 和 3 去找具有特征 2 和 4 的词元，头 4 什么也不问，只求平均。每张卡片写明它的头注意什么。',
    'ch2.attention.yours': '用你的数字时，每张卡片列出每个查询权重最大的键，取自模块算出的权重。',
    'ch2.attention.onDemand':
      '打开“数字”开关可在每个格子里显示分数和权重；悬停或聚焦一个格子可看它背后的算式。',
    'ch2.attention.example.1':
      '头 1 注意与自己共享特征 1 和 3 的词元：词元 1 和 3 平均分给词元 1、3、4，词元 4 主要看自己，词元 2（两者都没有）平均分给所有词元。',
    'ch2.attention.example.2':
      '头 2 注意词元 2，也就是特征 2 和 4 很大的那个：词元 2 把 0.98 给了自己，词元 3 和 4 主要看词元 2，词元 1（没有这些特征）平均分配。',
    'ch2.attention.example.3':
      '头 3 跨特征连接词元：词元 1、3、4（有特征 1 或 3）都看向具有特征 2 和 4 的词元 2；词元 2 什么也不问，平均分配。',
    'ch2.attention.example.4':
      '头 4 的查询全为 0，所以每个分数都是 0、每个权重都是 1/4：它平等地注意每个词元，即值的平均。',
    'ch2.attention.even': 'q{i} 平均',
    'ch2.attention.showNumbers': '数字',
    'ch2.formula.head': '头 h：其查询乘以其键的 softmax，再乘以其值',
    'ch2.narrate.attention': '{heads} 个头。最大权重：{summary}。',
    'ch2.attention.module':
      '每个头的得分和权重来自 trace({ x, wQuery, wKey, wValue, heads, kvHeads, wOut })：它返回的 heads[h].scores 和 heads[h].weights。',
    'ch2.attention.onDemand.touch':
      '打开“数字”开关可在每个格子里显示分数和权重；轻点一个格子可看它背后的算式。',
  },
};
