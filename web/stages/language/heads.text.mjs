// The sentences of chapter 4's stage "Heads on your sentence", and how a head of the character
// model reads (model/head-reading.mjs readTextHead), which the switches show too.
export default {
  en: {
    'ch4.stage.heads': 'Heads on your sentence',
    'ch4.title.heads': 'Every head’s attention on your sentence',
    'ch4.narrate.heads':
      'Each heatmap is one head’s attention on your sentence: a row is a character, its cells the weights on the characters before it. Under each, what its weights show.',
    'ch4.headName': 'Layer {layer} · head {head}',
    'ch4.heads.linesTitle': '{name} as lines (click a heatmap to choose another head): {reading}',
    'ch4.read.previous': 'previous character: {share} of its weight on the one just before',
    'ch4.read.line': 'same place in the line before: {share} of its weight there',
    'ch4.read.punctuation': 'punctuation: {share} of its weight on the marks and line breaks',
    'ch4.read.lineStart': 'start of the line: {share} of its weight on the line’s first character',
    'ch4.read.self': 'itself: {share} of its weight on its own character',
    'ch4.read.leans':
      'leans to {toward}: {share} of its weight there, the rest spread over about {keys} characters',
    'ch4.read.toward.previous': 'the previous character',
    'ch4.read.toward.line': 'the same place in the line before',
    'ch4.read.toward.punctuation': 'punctuation',
    'ch4.read.toward.lineStart': 'the start of the line',
    'ch4.read.toward.self': 'itself',
    'ch4.read.diffuse': 'diffuse: spread over about {keys} characters',
    'ch4.read.mixed': 'no single pattern (about {keys} characters)',
    'ch4.heads.explain':
      'Type any sentence made of the text’s characters: each head’s weights are computed on it by the model as trained so far. Rows are the characters asking (queries), columns the characters they look at (keys); darker is more weight.',
    'ch4.heads.kinds':
      'The reading under each head is computed from its weights: the pattern that gets at least half of its weight on average (previous character, the same place in the line before, punctuation, the start of the line, itself); else the pattern it leans to, when that gets at least {lean} and at least {over} times what spreading evenly would give it; else how many characters it spreads over. A line ends at a line break or a punctuation mark.',
  },
  zh: {
    'ch4.stage.heads': '你句子上的注意力头',
    'ch4.title.heads': '每个头在你句子上的注意力',
    'ch4.narrate.heads':
      '每张热图是一个头在你句子上的注意力：每一行是一个字符，格子是它对前面各字符的权重。下面写着它的权重显示了什么。',
    'ch4.headName': '第 {layer} 层 · 头 {head}',
    'ch4.heads.linesTitle': '{name} 画成连线（点击一张热图可换一个头）：{reading}',
    'ch4.read.previous': '前一个字符：其权重的 {share} 落在紧挨着的前一个字符上',
    'ch4.read.line': '上一句的同一位置：其权重的 {share} 落在那里',
    'ch4.read.punctuation': '标点：其权重的 {share} 落在标点和换行上',
    'ch4.read.lineStart': '句首：其权重的 {share} 落在本句的第一个字上',
    'ch4.read.self': '自己：其权重的 {share} 落在自己这个字上',
    'ch4.read.leans': '偏向{toward}：其权重的 {share} 落在那里，其余分布在大约 {keys} 个字符上',
    'ch4.read.toward.previous': '前一个字符',
    'ch4.read.toward.line': '上一句的同一位置',
    'ch4.read.toward.punctuation': '标点',
    'ch4.read.toward.lineStart': '句首',
    'ch4.read.toward.self': '自己',
    'ch4.read.diffuse': '分散：分布在大约 {keys} 个字符上',
    'ch4.read.mixed': '没有单一模式（大约 {keys} 个字符）',
    'ch4.heads.explain':
      '输入由文本字符组成的任意句子：每个头的权重由目前训练到的模型在它上面算出。行是发出询问的字符（查询），列是它们看向的字符（键）；颜色越深权重越大。',
    'ch4.heads.kinds':
      '每个头下面的解读由它的权重算出：平均得到至少一半权重的模式（前一个字符、上一句同一位置、标点、句首、自己）；否则是它偏向的模式，条件是那里至少有 {lean} 的权重，且至少是平均分配时的 {over} 倍；再否则是它分散在多少个字符上。一句在换行或标点处结束。',
  },
};
