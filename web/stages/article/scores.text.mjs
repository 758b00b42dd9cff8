// The sentences of scores.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.scores': 'Attention scores',
    'label.scoresOf': 'scores of query {i}',
    'matrix.keysTransposed': 'keys, transposed',
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
    'scores.dotCausal':
      'The attention scores (blue) of input {i}: its query (red) dotted with the keys (orange) of {i|input 1|inputs 1 to #}, its own included; the causal mask hides every later key.',
    'scores.countCausal':
      'That gives {visible|# score|# scores} for input {i}, how well its query matches each key it may see; {hidden|the later key gets|the # later keys get} −∞.',
    'scores.countCausalNone':
      'That gives {visible|# score|# scores} for input {i}: it is the last input, so no key comes after it and nothing is masked.',
  },
  zh: {
    'stage.scores': '计算注意力得分',
    'label.scoresOf': '查询{i}的得分',
    'matrix.keysTransposed': '键的转置',
    'scores.dot':
      '为了获得输入{i}的注意力得分（蓝色），我们用它的查询（红色）和所有输入的键（橙色）分别计算点积。',
    'scores.count':
      '因此针对输入{i}我们获得了{n}个注意力得分，分别表示它的查询与每个键的匹配程度。',
    'scores.onlyFirst':
      '请注意，这里我们只使用输入1中的查询。针对其他输入的查询，可以重复同样的步骤。',
    'scores.scaled':
      '已缩放：与Transformer一样，每个得分都除以√d_k = √{dK}，以免向量较长时softmax过于尖锐。',
    'scores.maskedTerm': '已屏蔽：键{j}在查询{i}之后',
    'formula.scores': 's i j等于q i与k j的点积',
    'formula.mask': '加上m i j：键 j不在i之后时为0，在i之后时为负无穷（因果掩码）',
    'formula.scoresScaled': 's i j等于q i与k j的点积除以d k的平方根',
    'note.articleSlip':
      '注意：由于计算注意力得分时使用的是点积，所以查询和键的维度必须相同（原文此处写作“query和value”，是笔误）。值的维度可以不同，输出的维度与值保持一致。',
    'narrate.scores': '查询{i}的得分 = {vector}。',
    'scores.dotCausal':
      '输入{i}的注意力得分（蓝色）：它的查询（红色）与{i|输入1|输入1到#}（包括它自己）的键（橙色）做点积；因果掩码遮住了之后所有的键。',
    'scores.countCausal':
      '这样输入{i}得到{visible}个得分，表示它的查询与每个可见的键的匹配程度；之后的{hidden}个键得分为−∞。',
    'scores.countCausalNone':
      '这样输入{i}得到{visible}个得分：它是最后一个输入，之后没有键，因此没有被遮住的得分。',
  },
};
