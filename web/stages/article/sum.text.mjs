// The sentences of sum.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.sum': 'The output',
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
    'sum.meaningCausal':
      'Output {i} mixes the values of {i|input 1|inputs 1 to #} only (the mask hides the later ones), each in proportion to how well its key matched query {i}.',
  },
  zh: {
    'stage.sum': '对加权值求和',
    'sum.table': '把查询{i}的加权值相加',
    'sum.caption': '输出{i}',
    'sum.add': '我们将这{n}个加权值按元素相加，得到输出{i}（深绿色）。',
    'sum.meaning': '输出{i}表示以输入{i}的查询与所有输入的键之间的注意力得分作为权重，对值求和。',
    'sum.approx':
      '“≈”表示打印出来的各项相加只是近似等于结果：每个加权值打印时都经过四舍五入，而输出是精确值之和。',
    'sum.dimension': '输出的维度与值相同，d_v = {dV}。',
    'formula.sum': 'o i等于对j求和a i j乘以v j',
    'narrate.sum': '输出{i} = {vector}。',
    'sum.meaningCausal':
      '输出{i}只混合了{i|输入1|输入1到#}的值（掩码遮住了后面的），比例取决于各自的键与查询 {i}的匹配程度。',
  },
};
