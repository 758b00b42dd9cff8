// The sentences of chapter 4's stage "Characters to rows of X", and the chapter's own (its
// title is with the other chapters', in i18n/): the text picker, the learner's sentence and the
// model's state, which every stage of the chapter shows (draw/language-views.mjs).
export default {
  en: {
    'ch4.stage.chars': 'Characters to rows of X',
    'ch4.title.chars': 'Your text becomes rows of X',
    'ch4.narrate.chars':
      'The sentence is split into characters, each character has an id in the vocabulary, and each id picks a row of the embedding matrix: the rows of X.',
    'ch4.text.label': 'Text',
    'ch4.text.tang': 'Tang poems (唐诗三百首)',
    'ch4.text.kjv': 'King James Bible, Genesis–Deuteronomy',
    'ch4.text.own': 'Your own text',
    'ch4.text.ownInSentence': 'your own text',
    'ch4.text.loading': 'Reading the text…',
    'ch4.text.failed': 'The text could not be read: {reason}',
    'ch4.text.about':
      'The model learns {name}: {characters} characters, of which {distinct} are different. The {known} seen at least {minCount} times are its vocabulary, each with an id in the order of their code points; the rarer ones share one more id, shown as {rare}: {vocab} ids in all.',
    'ch4.text.rare': '⟨rare⟩',
    'ch4.text.aboutAll':
      'The model learns {name}: {characters} characters, of which {distinct} are different. All {vocab} are its vocabulary, each with an id in the order of their code points: a text this short keeps even the characters it holds once (a longer one shares its rarest characters as one id).',
    'ch4.panel.title': 'Chapter 4: your text and sentence',
    'ch4.panel.intro':
      'The model reads the text you choose (or paste) and your sentence, and writes with the temperature and top-k below. Every stage of chapter 4 follows them.',
    'ch4.sentence.label': 'Your sentence',
    'ch4.sentence.count': '{n|# character|# characters}',
    'ch4.sentence.stale':
      'Not read yet: every count and figure still shows the last sentence the model could read, “{sentence}” ({n|# character|# characters}).',
    'ch4.sentence.short': 'Type at least {least} characters.',
    'ch4.sentence.long': 'The model reads at most {most} characters at once: shorten it.',
    'ch4.sentence.unknown':
      '“{character}” never occurs in the text, so the model has no id for it: use characters of the text.',
    'ch4.model.untrained':
      'The model shown is new, from scratch: untrained (its weights are random).',
    'ch4.model.goTrain': 'Train it in stage “Training live”.',
    'ch4.model.goTrainOrBack':
      'Train it in stage “Training live”, or go back to the snapshot there.',
    'ch4.model.goScratch': 'In stage “Training live” you can start from scratch.',
    'ch4.model.then': '{first} {then}',
    'ch4.model.trained': 'The model shown was trained here from scratch: step {step}.',
    'ch4.model.snapshot':
      'The model shown is the snapshot: trained {steps} steps offline; held-out loss {loss} nats per character, scored now.',
    'ch4.model.snapshotLoading': 'Loading the snapshot (the model trained offline)…',
    'ch4.model.kept':
      'The model shown is the snapshot, trained {steps} steps before you opened the page and {here} more here.',
    'ch4.model.noSnapshot': 'No snapshot for this text ({reason}): the model starts from scratch.',
    'ch4.model.failed': 'The model could not run: {reason}',
    'ch4.chars.writes': 'What it writes (temperature {temperature}, top {topK}):\n{text}',
    'ch4.chars.characters': '1. Characters',
    'ch4.chars.ids': '2. Ids in the vocabulary',
    'ch4.chars.rows': '3. Rows of X: each id picks its row of the embedding E',
    'ch4.chars.firstRow':
      'Row {id} of E, for “{character}”, begins {numbers} … ({more} more numbers). Your {T} characters give X with {T} rows of {D} numbers; E has {V} rows, one per character of the vocabulary ({when}). Blue is above 0, green below.',
    'ch4.chars.whenStep': 'as trained here from scratch, step {step}',
    'ch4.chars.whenSnapshot': 'the snapshot’s, trained {steps} steps offline',
    'ch4.chars.whenKept':
      'the snapshot’s, trained {steps} steps before you opened the page and {here} more here',
    'ch4.chars.explain':
      'A real model starts as the article did: one row of numbers per token. Here a token is one character; its id picks row id of the embedding matrix E, and that row ({D} numbers, learned with the rest of the model) is its row of X. The model reads at most {context} characters at once.',
    'ch4.chars.article':
      'The article’s X had {n|# row|# rows} of {d|# number|# numbers} ({n} tokens, each {d}-dimensional), written by hand. In a real model the rows are rows of E, found by training, and there is one per character the text uses. With RoPE the place of a character is not added to its row: it turns the queries and keys (chapter 3).',
  },
  zh: {
    'ch4.stage.chars': '从字符到 X 的行',
    'ch4.title.chars': '你的文字变成 X 的行',
    'ch4.narrate.chars':
      '句子被拆成字符，每个字符在词表里有一个编号，每个编号取出嵌入矩阵的一行：这就是 X 的行。',
    'ch4.text.label': '文本',
    'ch4.text.tang': '唐诗三百首',
    'ch4.text.kjv': '英王钦定本圣经（创世记至申命记）',
    'ch4.text.own': '你自己的文本',
    'ch4.text.ownInSentence': '你自己的文本',
    'ch4.text.loading': '正在读取文本…',
    'ch4.text.failed': '无法读取文本：{reason}',
    'ch4.text.about':
      '模型学习的是{name}：共 {characters} 个字符，其中不同的有 {distinct} 个。出现至少 {minCount} 次的 {known} 个字符是它的词表：按码位顺序，每个字符一个编号；更少见的字符共用另一个编号，显示为 {rare}：一共 {vocab} 个编号。',
    'ch4.text.rare': '⟨罕见字⟩',
    'ch4.text.aboutAll':
      '模型学习的是{name}：共 {characters} 个字符，其中不同的有 {distinct} 个。这 {vocab} 个字符全部是它的词表，按码位顺序，每个字符一个编号：文本这么短，只出现一次的字符也保留自己的编号（更长的文本会让最少见的字符共用一个编号）。',
    'ch4.panel.title': '第四章：你的文本和句子',
    'ch4.panel.intro':
      '模型读你选择（或粘贴）的文本和你的句子，并用下面的温度和 top-k 写作。第四章的每一节都随之更新。',
    'ch4.sentence.label': '你的句子',
    'ch4.sentence.count': '{n} 个字符',
    'ch4.sentence.stale':
      '尚未读入：计数和所有的图仍显示模型能读的上一个句子“{sentence}”（{n} 个字符）。',
    'ch4.sentence.short': '请至少输入 {least} 个字符。',
    'ch4.sentence.long': '模型一次最多读 {most} 个字符：请缩短。',
    'ch4.sentence.unknown': '“{character}”在文本中从未出现，模型没有它的编号：请用文本里有的字符。',
    'ch4.model.untrained': '这里显示的是从零开始的新模型，还没有训练（权重是随机的）。',
    'ch4.model.goTrain': '请在“现场训练”一节训练它。',
    'ch4.model.goTrainOrBack': '请在“现场训练”一节训练它，或在那里回到快照。',
    'ch4.model.goScratch': '在“现场训练”一节可以从零开始。',
    'ch4.model.then': '{first}{then}',
    'ch4.model.trained': '这里显示的是在本页从零训练的模型：第 {step} 步。',
    'ch4.model.snapshot':
      '这里显示的是快照：离线训练了 {steps} 步；留出文本损失为每字符 {loss} 奈特（刚刚算出）。',
    'ch4.model.snapshotLoading': '正在载入快照（离线训练好的模型）…',
    'ch4.model.kept': '这里显示的是快照：打开本页之前已训练 {steps} 步，又在本页训练了 {here} 步。',
    'ch4.model.noSnapshot': '这段文本没有快照（{reason}）：模型从零开始。',
    'ch4.model.failed': '模型无法运行：{reason}',
    'ch4.chars.writes': '它写出的内容（温度 {temperature}，前 {topK} 个）：\n{text}',
    'ch4.chars.characters': '1. 字符',
    'ch4.chars.ids': '2. 词表中的编号',
    'ch4.chars.rows': '3. X 的行：每个编号取出嵌入矩阵 E 的一行',
    'ch4.chars.firstRow':
      '“{character}”对应 E 的第 {id} 行，开头是 {numbers} …（还有 {more} 个数）。你的 {T} 个字符组成 X：{T} 行，每行 {D} 个数；E 有 {V} 行，词表里每个字符一行（{when}）。蓝色大于 0，绿色小于 0。',
    'ch4.chars.whenStep': '在本页从零训练到第 {step} 步的值',
    'ch4.chars.whenSnapshot': '快照的值，离线训练了 {steps} 步',
    'ch4.chars.whenKept': '快照的值，打开本页之前训练了 {steps} 步，又在本页训练了 {here} 步',
    'ch4.chars.explain':
      '真实的模型也像那篇文章一样，从每个词元一行数开始。这里一个词元就是一个字符；它的编号取出嵌入矩阵 E 的那一行（{D} 个数，与模型的其余部分一起学出来），这一行就是它在 X 中的行。模型一次最多读 {context} 个字符。',
    'ch4.chars.article':
      '文章里的 X 有 {n} 行、每行 {d} 个数（{n} 个词元，每个 {d} 维），是手写的。真实模型里，这些行是 E 的行，由训练得到，文本用到的每个字符各有一行。使用 RoPE 时，字符的位置不加到它的行上，而是旋转查询（query）和键（key）（见第三章）。',
  },
};
