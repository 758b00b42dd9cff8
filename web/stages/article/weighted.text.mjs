// The sentences of weighted.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.weighted': 'Weighted values',
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
  },
  zh: {
    'stage.weighted': '将得分与值相乘',
    'weighted.multiply':
      '接着将softmax之后的注意力得分（蓝色）乘以其相应的值（紫色），这将产生{n}个对齐向量（alignment vectors，黄色），在本文中我们称之为加权值。',
    'weighted.article':
      '使用原文的四舍五入时，这里乘的是四舍五入后的权重（与原文一样，属于显示用的计算）。',
    'weighted.approx':
      '“≈”表示这一行打印出来的数字相乘只是近似相等：权重打印时保留三位小数，而乘积是用精确的权重算出来的。',
    'numbers.decimals':
      '带三位小数的数字是为显示而四舍五入的（2.000可能是1.99999…）；不带小数的数字（如2）是精确的。',
    'formula.weighted': 'a i j乘以v j',
    'narrate.weighted': '查询{i}的加权值：{lines}。',
  },
};
