// The sentences of softmax.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.softmax': 'Softmax',
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
    'softmax.addsToOneRounded':
      'The shares always add up to 1. The weights printed beside them add up to {sum} only because each is rounded to three decimals.',
  },
  zh: {
    'stage.softmax': '计算softmax',
    'softmax.table': '查询{i}得分的softmax',
    'softmax.rowScores': '得分',
    'softmax.rowExp': 'e^(s − max)',
    'softmax.rowWeights': '权重',
    'softmax.rowWeightsArticle': '权重（原文的写法）',
    'softmax.rowExact': '精确权重',
    'softmax.rowBars': '占比',
    'softmax.stackedLabel': '查询{i}的权重在一根条中所占的比例',
    'softmax.addsToOne': '各部分相加始终为1。',
    'softmax.normalise': '我们使用softmax函数来执行归一化操作，使得各项为正且相加后和为1。',
    'softmax.how':
      '对每个得分取e的指数（先减去最大的得分：结果不变，但数字不会过大），再除以它们的和。',
    'softmax.articleRounds':
      '与原文一样，为了便于阅读，softmax的输出四舍五入到小数点后1位：{weights}。',
    'formula.softmax': 'a i j等于e的s i j次方除以所有e的s i l次方之和',
    'narrate.softmax': '查询{i}的权重 = {vector}。',
    'softmax.addsToOneRounded':
      '各部分相加始终为1。旁边印出的权重加起来是{sum}，只是因为每个都四舍五入到了小数点后3位。',
  },
};
