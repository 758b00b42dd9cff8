// The sentences of heads-learned.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'ch3.heads.noInductionHead':
      'The model predicts {token} next. This model has no induction head: on the held-out row of the previous stage, no head puts most of its weight on the token after the earlier copy of the current one. So no head copies what followed an earlier copy; the prediction comes from what this model did learn.',
    'ch3.heads.relation.afterCopy': 'the token after the earlier {last}',
    'ch3.heads.relation.copy': 'the earlier {last} itself, not the token after it',
    'ch3.heads.relation.previous': 'the token just before {last}',
    'ch3.heads.relation.self': 'the last token itself',
    'ch3.heads.relation.start': 'the start token ⟨s⟩',
    'ch3.heads.relation.other': 'neither the earlier {last} nor the token after it',
    'ch3.heads.copies':
      'The prediction is that very letter: the model copies what followed the earlier {last}.',
    'ch3.heads.notCopied':
      'Yet the model predicts {token}, not the {key} it looks at: this head alone does not decide it.',
    'ch3.heads.every':
      'Every head on your sequence, each under what it does (read on the held-out row, as in the previous stage)',
    'stage.heads-learned': 'What the heads learned',
    'ch3.title.heads': 'The trained heads on your sequence',
    'ch3.narrate.heads':
      'Type a sequence: the heads the previous stage names as the previous-token head and the induction head show where each token looks, and the model continues the sequence.',
    'ch3.heads.explain':
      'A line joins each token (left) to the tokens it attends to (right); the thicker the line, the larger the weight. The model is the one trained in the previous stage, as it is now. Which head does what is read there, on its held-out row, so both stages name the same previous-token head and the same induction head; here they read your sequence.',
    'ch3.heads.inputLabel': 'Your sequence (letters A to O)',
    'ch3.heads.help': 'For example A B C D A B C: spaces are optional.',
    'ch3.heads.untrained':
      'Train the model in the previous stage first: an untrained model has no heads worth showing.',
    'ch3.heads.previous':
      'Previous-token head: each token gives {score} of its weight, on average, to the token just before it.',
    'ch3.heads.induction':
      'Induction head: each repeated token gives {score} of its weight, on average, to the token after its earlier copy.',
    'ch3.heads.noRepeat':
      'No letter repeats in your sequence, so there is nothing for an induction head to find.',
    'ch3.heads.prediction':
      'The model predicts {token} next. Its induction head, layer {layer}’s head {head}, looks from the last token at {key} (position {position}, weight {weight}): {what}.',
    'ch3.heads.predictionNoCopy':
      'The model predicts {token} next. The last token, {last}, has not appeared before, so no head can copy what followed it: this prediction is a guess.',
    'ch3.heads.decoding':
      'Decoding token by token with the KV cache (the model after {step|# step|# steps}):',
    'ch3.ask.inductionNext':
      'In ⟨s⟩ {sequence}, counting ⟨s⟩ as position 0: which position does an induction head attend to from the last token?',
    'ch3.ask.waitTrained':
      'Predict asks here once the model is trained: train it in the previous stage (“Train a tiny model live”), then come back.',
    'ch3.ask.previousNext':
      'This model has no induction head, but it has a previous-token head. In ⟨s⟩ {sequence}, counting ⟨s⟩ as position 0: which position does its previous-token head attend to from the last token?',
    'ch3.ask.inductionNone':
      'This model has no induction head (no head of it looks at the token after an earlier copy). Had training made one: in ⟨s⟩ {sequence}, counting ⟨s⟩ as position 0, which position would it attend to from the last token?',
    'ch3.hint.previousTitle':
      'A previous-token head looks at the token just before the current one.',
    'ch3.hint.previousNext':
      'The last C stands at position 7; the head looks at the token just before it. Its position is ?',
    'ch3.hint.inductionTitle': 'An induction head looks for the earlier copy of the current token.',
    'ch3.hint.inductionNext':
      'Find the earlier C; the head looks at the token right after it. Its position is ?',
    'ch3.heads.loading': 'Loading the trained model from the link…',
    'ch3.panels.heads':
      'The trained heads are read on your sequence in the scene: where each token looks, the prediction and the decoded tokens. The model is the one trained (or loaded) in the previous stage; nothing here changes it.',
  },
  zh: {
    'ch3.heads.noInductionHead':
      '模型预测下一个是 {token}。这个模型没有归纳头：在上一阶段的留出行上，没有哪个头把大部分权重放在当前词元上一次出现之后的那个词元上。所以没有头去复制上一次出现之后的内容；这个预测来自这个模型学到的其他东西。',
    'ch3.heads.relation.afterCopy': '上一个 {last} 之后的那个词元',
    'ch3.heads.relation.copy': '上一个 {last} 本身，而不是它之后的词元',
    'ch3.heads.relation.previous': '{last} 前面紧挨着的词元',
    'ch3.heads.relation.self': '最后一个词元自己',
    'ch3.heads.relation.start': '起始词元 ⟨s⟩',
    'ch3.heads.relation.other': '既不是上一个 {last}，也不是它之后的词元',
    'ch3.heads.copies': '预测的正是这个字母：模型复制了上一个 {last} 之后的内容。',
    'ch3.heads.notCopied': '但模型预测的是 {token}，不是它看向的 {key}：这里不是这个头单独决定的。',
    'ch3.heads.every':
      '每个头在你的序列上的注意力，下面写着它在做什么（在留出行上读出，与上一阶段相同）',
    'stage.heads-learned': '头学到了什么',
    'ch3.title.heads': '训练好的头看你的序列',
    'ch3.narrate.heads':
      '输入一个序列：上一阶段认出的前一词元头和归纳头显示每个词元看向哪里，模型接着续写这个序列。',
    'ch3.heads.explain':
      '每条线把一个词元（左）连到它关注的词元（右）；线越粗，权重越大。模型就是上一阶段训练的那个，处于当前状态。哪个头做什么是在上一阶段的留出行上读出的，所以两个阶段说的是同一个前一词元头和同一个归纳头；这里它们读的是你的序列。',
    'ch3.heads.inputLabel': '你的序列（字母 A 到 O）',
    'ch3.heads.help': '例如 A B C D A B C：空格可有可无。',
    'ch3.heads.untrained': '请先在上一阶段训练模型：未训练的模型没有值得展示的头。',
    'ch3.heads.previous': '前一词元头：每个词元平均把 {score} 的权重给它前面紧挨着的词元。',
    'ch3.heads.induction':
      '归纳头：每个重复出现的词元平均把 {score} 的权重给它上一次出现之后的那个词元。',
    'ch3.heads.noRepeat': '你的序列里没有重复的字母，归纳头没有可找的东西。',
    'ch3.heads.prediction':
      '模型预测下一个是 {token}。它的归纳头——第 {layer} 层的头 {head}——从最后一个词元看向 {key}（位置 {position}，权重 {weight}）：{what}。',
    'ch3.heads.predictionNoCopy':
      '模型预测下一个是 {token}。最后一个词元 {last} 之前没有出现过，没有哪个头能照抄它后面的词元：这个预测只是猜测。',
    'ch3.heads.decoding': '用 KV 缓存逐个词元解码（训练了 {step} 步的模型）：',
    'ch3.ask.inductionNext':
      '在 ⟨s⟩ {sequence} 中，把 ⟨s⟩ 记为位置 0：归纳头从最后一个词元看向哪个位置？',
    'ch3.ask.waitTrained':
      '模型训练好之后，“预测”会在这里提问：请先在上一阶段（“现场训练一个小模型”）训练，再回来。',
    'ch3.ask.previousNext':
      '这个模型没有归纳头，但有一个前一词元头。在 ⟨s⟩ {sequence} 中，把 ⟨s⟩ 记为位置 0：它的前一词元头从最后一个词元看向哪个位置？',
    'ch3.ask.inductionNone':
      '这个模型没有归纳头（没有哪个头看向上一次出现之后的那个词元）。假如训练出了一个：在 ⟨s⟩ {sequence} 中，把 ⟨s⟩ 记为位置 0，它会从最后一个词元看向哪个位置？',
    'ch3.hint.previousTitle': '前一词元头看向当前词元前面紧挨着的那个词元。',
    'ch3.hint.previousNext': '最后的 C 在位置 7；这个头看的是紧挨在它前面的词元。它的位置是 ？',
    'ch3.hint.inductionTitle': '归纳头寻找当前词元上一次出现的地方。',
    'ch3.hint.inductionNext': '找到前面那个 C；这个头看的是紧跟在它后面的词元。它的位置是 ？',
    'ch3.heads.loading': '正在从链接载入训练好的模型…',
    'ch3.panels.heads':
      '训练好的头在场景里读你的序列：每个词元看向哪里、预测和解码出的词元。模型就是上一阶段训练（或载入）的那个；这里不会改变它。',
  },
};
