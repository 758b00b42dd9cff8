// The sentences of chapter 4's stage "From attention to the next character".
export default {
  en: {
    'ch4.stage.next': 'From attention to the next character',
    'ch4.title.next': 'Logits, softmax, and the loss of the true character',
    'ch4.narrate.next':
      'The last row’s output times W_U gives one logit per character; softmax turns the logits into probabilities; the loss is minus the log of the true next character’s probability.',
    'ch4.next.reads':
      'The model reads “{before}” and must give the next character, “{truth}”, a probability among all {V}.',
    'ch4.next.hTitle':
      '1. h: the last row’s output, after the final LayerNorm ({D} numbers; blue above 0, green below)',
    'ch4.next.logitsTitle':
      '2. Logits z = h · W_U: W_U has {D} rows and one column per character ({V})',
    'ch4.next.dot':
      'z(“{truth}”) = h · (W_U’s column for “{truth}”) = {products} + … ({more} more products) = {z}',
    'ch4.next.colChar': 'character',
    'ch4.next.colLogit': 'logit z',
    'ch4.next.colP': 'probability',
    'ch4.next.rare':
      '{rare} is not one character: it is the one id that every character seen fewer than {minCount} times in the text shares, so the model gives them one logit and one probability together.',
    'ch4.next.probsTitle':
      '3. Softmax: the probability of each next character (the five most likely)',
    'ch4.next.barsLabel': 'The most likely next characters and their probabilities',
    'ch4.next.rank': '“{truth}” is number {rank} of {V}.',
    'ch4.next.lossTitle': '4. The loss of the true character',
    'ch4.next.loss': 'p(“{truth}”) = {p}, so the loss is −ln {p} = {loss} nats.',
    'ch4.next.sentenceLoss':
      'The same at every place of your sentence ({n|# prediction|# predictions}, darker is a larger loss): their mean is {loss} nats per character. Guessing evenly among all characters would cost ln V = {uniform}.',
    'ch4.next.placeLoss': 'p = {p}, loss {loss}',
    'ch4.next.seen.training':
      'This sentence is in the part of the text the model trains on (its first nine tenths), so the model may know it by heart: its loss on text it has never seen is the held-out loss of “Training live”.',
    'ch4.next.seen.heldOut':
      'This sentence is in the held-out tenth of the text: the model has never trained on it.',
    'ch4.next.explain':
      'Attention and the MLP turn each row of X into an output row h. The last row’s h is multiplied by the unembedding W_U, one column per character of the vocabulary: each product is a logit, a score for that character coming next.',
    'ch4.next.why':
      'Softmax (as for attention’s weights, over the vocabulary now) makes the logits probabilities that add up to 1. Training lowers −ln p of the character that really came next, averaged over every place: the same cross-entropy loss as in chapter 3.',
    'ch4.formula.loss':
      'L equals minus the natural log of p of the true character; p of v is e to the z v over the sum of e to the z u; z equals h times W U',
  },
  zh: {
    'ch4.stage.next': '从注意力到下一个字符',
    'ch4.title.next': 'logits、softmax 与真实字符的损失',
    'ch4.narrate.next':
      '最后一行的输出乘以 W_U，得到每个字符一个 logit；softmax 把 logits 变成概率；损失是真实下一个字符概率的负对数。',
    'ch4.next.reads': '模型读入“{before}”，要给下一个字符“{truth}”在全部 {V} 个字符中一个概率。',
    'ch4.next.hTitle':
      '1. h：最后一行的输出，经过最后的 LayerNorm（{D} 个数；蓝色大于 0，绿色小于 0）',
    'ch4.next.logitsTitle': '2. logits z = h · W_U：W_U 有 {D} 行，每个字符一列（{V} 列）',
    'ch4.next.dot':
      'z(“{truth}”) = h · （W_U 中“{truth}”那一列）= {products} + …（还有 {more} 个乘积）= {z}',
    'ch4.next.colChar': '字符',
    'ch4.next.colLogit': 'logit z',
    'ch4.next.colP': '概率',
    'ch4.next.rare':
      '{rare} 不是一个字符：文本中出现少于 {minCount} 次的字符共用这一个编号，所以模型给它们的是同一个 logit、同一个概率。',
    'ch4.next.probsTitle': '3. softmax：每个下一个字符的概率（最可能的五个）',
    'ch4.next.barsLabel': '最可能的下一个字符及其概率',
    'ch4.next.rank': '“{truth}”在 {V} 个中排第 {rank}。',
    'ch4.next.lossTitle': '4. 真实字符的损失',
    'ch4.next.loss': 'p(“{truth}”) = {p}，所以损失是 −ln {p} = {loss} 奈特。',
    'ch4.next.sentenceLoss':
      '你的句子每个位置都这样算（共 {n} 次预测，颜色越深损失越大）：平均是每字符 {loss} 奈特。在所有字符中平均乱猜的损失是 ln V = {uniform}。',
    'ch4.next.placeLoss': 'p = {p}，损失 {loss}',
    'ch4.next.seen.training':
      '这句话就在模型训练用的那部分文本里（前十分之九），模型可能已经背下来了；它在没见过的文本上的损失，要看“现场训练”一节的留出损失。',
    'ch4.next.seen.heldOut': '这句话在文本留出的最后十分之一里：模型从没在它上面训练过。',
    'ch4.next.explain':
      '注意力和 MLP 把 X 的每一行变成输出行 h。最后一行的 h 乘以反嵌入矩阵 W_U（词表里每个字符一列）：每个乘积是一个 logit，即这个字符作为下一个字符的得分。',
    'ch4.next.why':
      'softmax（和注意力权重一样，只是这次作用在词表上）把 logits 变成加起来为 1 的概率。训练降低真实下一个字符的 −ln p，对每个位置取平均：和第三章一样的交叉熵损失。',
    'ch4.formula.loss':
      'L 等于负的真实字符概率的自然对数；p v 等于 e 的 z v 次方除以所有 e 的 z u 次方之和；z 等于 h 乘 W U',
  },
};
