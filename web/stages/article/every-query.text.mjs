// The sentences of every-query.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.everyQuery': 'Every other query',
    'title.result': 'The whole result',
    'result.repeat':
      'Repeat the same steps for every query and you get the whole result: one output row per input.',
    'result.matrices':
      'As matrices: the scores are Q·Kᵀ, the weights are the softmax of each row, the outputs are weights · V.',
    'result.matricesScaled':
      'As matrices: the scores are Q·Kᵀ / √d_k, the weights are the softmax of each row, the outputs are weights · V.',
    'result.heatmaps':
      'The heatmaps show which key each query attends to: the darker the cell, the larger the number.',
    'formula.result': 'O equals softmax of Q K transposed, times V',
    'formula.resultScaled':
      'O equals softmax of Q K transposed over the square root of d k, times V',
    'narrate.result': 'All outputs: {outputs}.',
  },
  zh: {
    'stage.everyQuery': '其余的查询',
    'title.result': '完整结果',
    'result.repeat': '对其余输入的查询重复上述步骤，就得到了完整的结果：每个输入对应一行输出。',
    'result.matrices': '写成矩阵：得分为Q·Kᵀ，权重为每一行的softmax，输出为权重·V。',
    'result.matricesScaled': '写成矩阵：得分为Q·Kᵀ / √d_k，权重为每一行的softmax，输出为权重·V。',
    'result.heatmaps': '热力图展示每个查询关注哪些键：颜色越深，数值越大。',
    'formula.result': 'O等于Q乘K的转置的softmax，再乘以V',
    'formula.resultScaled': 'O等于Q乘K的转置除以d k的平方根的softmax，再乘以V',
    'narrate.result': '全部输出：{outputs}。',
  },
};
