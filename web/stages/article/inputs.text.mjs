// The sentences of inputs.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.inputs': 'The inputs',
    'title.inputs': 'The inputs: {n|# token|# tokens} as the rows of X',
    'inputs.embeddings':
      'Self-attention takes token embeddings as its input: each word of a sentence is replaced by a vector of numbers.',
    'inputs.example':
      'Here we have {n|# token|# tokens}, each a {d}-dimensional vector: the {n|# row|# rows} of X (green).',
    'formula.inputs': 'X is a matrix of {n|# row|# rows} and {d|# column|# columns}',
    'narrate.inputs': '{n|# input|# inputs} of dimension {d}. {rows}.',
  },
  zh: {
    'stage.inputs': '准备输入',
    'title.inputs': '输入：{n}个词元即X的{n}行',
    'inputs.embeddings':
      '自注意力的输入是词元嵌入（token embedding）：词元（token）是一个词或词的一部分，它的嵌入就是表示它的多维数字向量。',
    'inputs.example': '假设我们有{n}个{d}维的词元嵌入作为自注意力的输入，也就是X的{n}行（绿色）。',
    'formula.inputs': 'X是{n}行{d}列的矩阵',
    'narrate.inputs': '{n}个{d}维的输入。{rows}。',
  },
};
