// The sentences of output.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.output': 'Concatenate, then W_O',
    'ch2.title.concat': 'The heads’ outputs side by side',
    'ch2.title.output': 'The output projection: Y = C·W_O',
    'ch2.concat.headOutput': 'output of head {h}',
    'ch2.concat.why':
      'Each head gives one output row per token, d_head = {dHead|# number|# numbers}. The {heads|# head|# heads}’ outputs are put side by side, column blocks in the heads’ colours: {width|# number|# numbers} per token.',
    'ch2.concat.noMixing':
      'Nothing is added yet: each block is exactly its head’s output. Mixing what the heads found is the job of the next matrix, W_O.',
    'ch2.formula.concat': 'C: the heads’ outputs side by side',
    'ch2.narrate.concat': '{heads|# head|# heads}’ outputs side by side. Row 1: {row}.',
    'ch2.output.why':
      'The concatenation is multiplied by W_O, as X was by W_Q in chapter 1: each output cell is one row of C dotted with one column of W_O. The result has d_model = {dModel|# column|# columns} again, so layers can be stacked.',
    'ch2.output.mix':
      'Every row of W_O reads one column of one head, so each output number can mix what all the heads found.',
    'ch2.formula.output': 'The layer’s output: C times W_O',
    'ch2.narrate.output': 'Y = C·W_O. Row 1: {row}.',
  },
  zh: {
    'stage.output': '拼接，再乘 W_O',
    'ch2.title.concat': '各头的输出并排',
    'ch2.title.output': '输出投影：Y = C·W_O',
    'ch2.concat.headOutput': '头 {h} 的输出',
    'ch2.concat.why':
      '每个头为每个词元给出一行输出，d_head = {dHead} 个数。把 {heads} 个头的输出并排放在一起，列块用各头的颜色：每个词元 {width} 个数。',
    'ch2.concat.noMixing':
      '这里还没有相加：每一块正好是它那个头的输出。把各头的发现混合起来，是下一个矩阵 W_O 的工作。',
    'ch2.formula.concat': 'C：各头的输出并排',
    'ch2.narrate.concat': '{heads} 个头的输出并排。第 1 行：{row}。',
    'ch2.output.why':
      '拼接结果乘以 W_O，就像第一章中 X 乘以 W_Q：每个输出格子是 C 的一行与 W_O 的一列的点积。结果又是 d_model = {dModel} 列，于是层可以堆叠。',
    'ch2.output.mix': 'W_O 的每一行读取某个头的某一列，所以每个输出数都能混合所有头的发现。',
    'ch2.formula.output': '该层的输出：C 乘以 W_O',
    'ch2.narrate.output': 'Y = C·W_O。第 1 行：{row}。',
  },
};
