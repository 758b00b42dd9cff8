// The sentences of weights.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.weights': 'The weights',
    'title.weights': 'Three weight matrices',
    'weights.three':
      'Each input is multiplied by three weight matrices to get its key (orange), its query (red) and its value (purple).',
    'weights.shapes':
      'An input has shape 1×{dIn}; a key and a query have shape 1×{dK}, a value 1×{dV}; so W_K and W_Q are {dIn}×{dK} and W_V is {dIn}×{dV}.',
    'weights.random':
      'In a real network these weights are small random numbers (for example Gaussian or Xavier), set before training and updated during it.',
    'formula.weights': 'W K and W Q are {dIn} by {dK}; W V is {dIn} by {dV}',
    'narrate.weights': 'Weights: W_K and W_Q are {dIn}×{dK}, W_V is {dIn}×{dV}.',
    'weights.intuition':
      'An intuition: a query is what a token is looking for, a key is what it offers to be found by, and a value is what it hands over once it is found, like a search that matches questions against labels and returns the contents.',
  },
  zh: {
    'stage.weights': '初始化权重',
    'title.weights': '三个权重矩阵',
    'weights.three':
      '我们需要将每个输入和三个权重矩阵分别相乘，进而得到我们的键（key，橙色）、查询（query，红色）、值（value，紫色）。',
    'weights.shapes':
      '由于输入的形状（shape）为1×{dIn}，键和查询的形状为1×{dK}，值的形状为1×{dV}，因此W_K和W_Q的形状为{dIn}×{dK}，W_V的形状为{dIn}×{dV}。',
    'weights.random':
      '在神经网络中，这些权重通常是很小的浮点数，一般使用随机分布（如Gaussian、Xavier）来随机初始化。权重初始化放在训练之前，在训练过程中不断更新。',
    'formula.weights': 'W K和W Q是{dIn}乘{dK}的矩阵，W V是{dIn}乘{dV}的矩阵',
    'narrate.weights': '权重：W_K和W_Q为{dIn}×{dK}，W_V为{dIn}×{dV}。',
    'weights.intuition':
      '一个直观的理解：查询是一个词元想要找的东西，键是它提供给别人来匹配的标签，值是它被找到后交出去的内容，就像一次检索：用问题去匹配标签，再取回内容。',
  },
};
