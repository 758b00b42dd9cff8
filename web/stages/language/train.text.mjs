// The sentences of chapter 4's stage "Training live".
export default {
  en: {
    'ch4.stage.train': 'Training live',
    'ch4.title.train': 'Train the model on the text',
    'ch4.narrate.train':
      'The model trains on the text in a worker; its loss curve is drawn against the unigram and bigram baselines, and every few hundred steps the model writes a sample.',
    'ch4.train.train': 'Train',
    'ch4.train.pause': 'Pause',
    'ch4.train.resume': 'Resume',
    'ch4.train.reset': 'Reset',
    'ch4.train.fromScratch': 'Start from scratch',
    'ch4.train.toSnapshot': 'Back to the snapshot',
    'ch4.train.keep': 'Keep training',
    'ch4.train.sampleSnapshot': 'the snapshot · trained {steps} steps offline',
    'ch4.train.sampleKept':
      'step {step} · {offline} steps before you opened the page, {here} here · {seconds} s',
    'ch4.train.ready': 'Ready: press Train. The model starts from random weights.',
    'ch4.train.starting': 'Starting the worker…',
    'ch4.train.failed': 'Training stopped: {reason}',
    'ch4.train.status': 'step {step} · training loss {loss} · {perSecond} steps a second',
    'ch4.train.paused': 'paused at step {step} · training loss {loss}',
    'ch4.train.scoring':
      'step {step} · scoring the held-out tenth ({characters} characters, never trained on)…',
    'ch4.train.heldOut':
      'Held-out text (the last tenth, never trained on; scored every {every} steps), at step {step}: {loss} nats per character ({bits} bits), the next character guessed right {accuracy}% of the time. Unigram: {unigram}; bigram: {bigram}.',
    'ch4.train.curveLabel':
      'The training loss at every step, the held-out loss at each sample, and the two baselines',
    'ch4.train.axisSteps': 'training steps',
    'ch4.train.legendTraining': 'training loss: the batch of each step',
    'ch4.train.legendHeldOut': 'held-out loss: text never trained on',
    'ch4.train.legendUnit': 'both in nats per character',
    'ch4.train.unigram': 'unigram {loss}',
    'ch4.train.bigram': 'bigram {loss}',
    'ch4.train.samplesTitle':
      'What it writes, every {every} steps (temperature {temperature}, among the {topK} likeliest characters)',
    'ch4.train.sampleAt': 'step {step} · {seconds} s',
    'ch4.train.beatsBoth':
      'On held-out text the model shown ({loss}) is below both lines: it beats unigram ({unigram}) and bigram ({bigram}), so it uses more than the one character before.',
    'ch4.train.beatsUnigram':
      'On held-out text the model shown ({loss}) beats unigram ({unigram}) but not bigram ({bigram}): it does not yet predict better than counting which character follows which.',
    'ch4.train.beatsBigram':
      'On held-out text the model shown ({loss}) beats bigram ({bigram}) but not unigram ({unigram}).',
    'ch4.train.beatsNone':
      'On held-out text the model shown ({loss}) is above both lines: it does not yet beat unigram ({unigram}) or bigram ({bigram}).',
    'ch4.train.beatsUnigram.risen':
      'On held-out text the model shown ({loss}) beats unigram ({unigram}) but not bigram ({bigram}).',
    'ch4.train.beatsBigram.risen':
      'On held-out text the model shown ({loss}) beats bigram ({bigram}) but not unigram ({unigram}).',
    'ch4.train.beatsNone.risen':
      'On held-out text the model shown ({loss}) is above both lines: it beats neither unigram ({unigram}) nor bigram ({bigram}).',
    'ch4.train.nearUnigram':
      'On held-out text the model shown ({loss}) is about the same as unigram ({unigram}) and above bigram ({bigram}): it does not yet predict better than knowing how often each character occurs.',
    'ch4.train.nearUnigram.risen':
      'On held-out text the model shown ({loss}) is about the same as unigram ({unigram}) and above bigram ({bigram}).',
    'ch4.train.nearBigram':
      'On held-out text the model shown ({loss}) beats unigram ({unigram}) and is about the same as bigram ({bigram}): it does not yet predict better than counting which character follows which.',
    'ch4.train.nearBigram.risen':
      'On held-out text the model shown ({loss}) beats unigram ({unigram}) and is about the same as bigram ({bigram}).',
    'ch4.train.nearBoth':
      'On held-out text the model shown ({loss}) is about the same as both lines, unigram ({unigram}) and bigram ({bigram}).',
    'ch4.train.nearBoth.risen':
      'On held-out text the model shown ({loss}) is about the same as both lines, unigram ({unigram}) and bigram ({bigram}).',
    'ch4.train.overfitting':
      'Its held-out loss has risen from its best ({best} at step {step}) while the training loss keeps falling: it is memorising the training text (overfitting) instead of learning what carries over to text it has not seen.',
    'ch4.train.verse': '{share}% of its whole lines have 5 or 7 characters',
    'ch4.own.summary': 'Train on your own text',
    'ch4.own.label': 'Your text',
    'ch4.own.placeholder': 'Paste any text, at least {least} characters (more is better).',
    'ch4.own.use': 'Use this text',
    'ch4.own.short': 'The model needs at least {least} characters to learn from; this has {n}.',
    'ch4.train.explain':
      'The model: {layers} layers of {heads} heads, rows of {dModel} numbers, RoPE positions and the MLP, reading {context} characters at a time. Each step takes {batch} random windows of the text’s first nine tenths and moves every weight against the gradient of the loss.',
    'ch4.train.baselines':
      'The two lines are models without attention, counted from the same nine tenths and scored on the held-out tenth: unigram knows only how often each character occurs; bigram also knows the character before. A model below the bigram line on held-out text uses more than the one character before; the sentence under the curve says where the model shown is.',
    'ch4.train.snapshotExplain':
      'This text has a snapshot, which the chapter opens with: the same model trained offline on the same text by the repository’s script, from the same seed, and stored as half-precision numbers. “Keep training” trains it on here from where it stopped; “Start from scratch” throws it away for random weights and trains here; “Back to the snapshot” brings it back as stored.',
  },
  zh: {
    'ch4.stage.train': '现场训练',
    'ch4.title.train': '在文本上训练模型',
    'ch4.narrate.train':
      '模型在后台线程里学习文本；损失曲线和一元、二元基线画在一起，每隔几百步模型写一段样本。',
    'ch4.train.train': '训练',
    'ch4.train.pause': '暂停',
    'ch4.train.resume': '继续',
    'ch4.train.reset': '重置',
    'ch4.train.fromScratch': '从零开始',
    'ch4.train.toSnapshot': '回到快照',
    'ch4.train.keep': '接着训练',
    'ch4.train.sampleSnapshot': '快照 · 离线训练了 {steps} 步',
    'ch4.train.sampleKept':
      '第 {step} 步 · 打开本页前训练 {offline} 步，本页 {here} 步 · {seconds} 秒',
    'ch4.train.ready': '准备好了：按“训练”。模型从随机权重开始。',
    'ch4.train.starting': '正在启动后台线程…',
    'ch4.train.failed': '训练停止：{reason}',
    'ch4.train.status': '第 {step} 步 · 训练损失 {loss} · 每秒 {perSecond} 步',
    'ch4.train.paused': '已暂停，第 {step} 步 · 训练损失 {loss}',
    'ch4.train.scoring':
      '第 {step} 步 · 正在给留出的最后十分之一打分（{characters} 个字符，从不用于训练）…',
    'ch4.train.heldOut':
      '留出文本（最后十分之一，从不用于训练；每 {every} 步评一次），第 {step} 步：每字符 {loss} 奈特（{bits} 比特），猜对下一个字符的比例 {accuracy}%。一元：{unigram}；二元：{bigram}。',
    'ch4.train.curveLabel': '每步的训练损失、每次采样时的留出损失，以及两条基线',
    'ch4.train.axisSteps': '训练步数',
    'ch4.train.legendTraining': '训练损失：每一步那批窗口上的',
    'ch4.train.legendHeldOut': '留出损失：从不用于训练的文本上的',
    'ch4.train.legendUnit': '单位都是每字符奈特',
    'ch4.train.unigram': '一元 {loss}',
    'ch4.train.bigram': '二元 {loss}',
    'ch4.train.samplesTitle':
      '它写出的内容，每 {every} 步一次（温度 {temperature}，在最可能的 {topK} 个字符中抽取）',
    'ch4.train.sampleAt': '第 {step} 步 · {seconds} 秒',
    'ch4.train.beatsBoth':
      '在留出文本上，当前模型（{loss}）低于两条基线：它胜过一元（{unigram}）和二元（{bigram}）模型，说明它用上了前一个字符以外的上下文。',
    'ch4.train.beatsUnigram':
      '在留出文本上，当前模型（{loss}）胜过一元（{unigram}），但没有胜过二元（{bigram}）：它的预测还不如只数“哪个字符跟在哪个后面”。',
    'ch4.train.beatsBigram':
      '在留出文本上，当前模型（{loss}）胜过二元（{bigram}），但没有胜过一元（{unigram}）。',
    'ch4.train.beatsNone':
      '在留出文本上，当前模型（{loss}）高于两条基线：它还没有胜过一元（{unigram}）或二元（{bigram}）模型。',
    'ch4.train.beatsUnigram.risen':
      '在留出文本上，当前模型（{loss}）胜过一元（{unigram}），但没有胜过二元（{bigram}）。',
    'ch4.train.beatsBigram.risen':
      '在留出文本上，当前模型（{loss}）胜过二元（{bigram}），但没有胜过一元（{unigram}）。',
    'ch4.train.beatsNone.risen':
      '在留出文本上，当前模型（{loss}）高于两条基线：一元（{unigram}）和二元（{bigram}）模型它都没有胜过。',
    'ch4.train.nearUnigram':
      '在留出文本上，当前模型（{loss}）与一元（{unigram}）差不多，高于二元（{bigram}）：它的预测还不比只知道每个字符出现的频率更好。',
    'ch4.train.nearUnigram.risen':
      '在留出文本上，当前模型（{loss}）与一元（{unigram}）差不多，高于二元（{bigram}）。',
    'ch4.train.nearBigram':
      '在留出文本上，当前模型（{loss}）胜过一元（{unigram}），与二元（{bigram}）差不多：它的预测还不比只数“哪个字符跟在哪个后面”更好。',
    'ch4.train.nearBigram.risen':
      '在留出文本上，当前模型（{loss}）胜过一元（{unigram}），与二元（{bigram}）差不多。',
    'ch4.train.nearBoth':
      '在留出文本上，当前模型（{loss}）与两条基线差不多：一元（{unigram}），二元（{bigram}）。',
    'ch4.train.nearBoth.risen':
      '在留出文本上，当前模型（{loss}）与两条基线差不多：一元（{unigram}），二元（{bigram}）。',
    'ch4.train.overfitting':
      '它的留出损失已从最低点（第 {step} 步的 {best}）回升，而训练损失还在下降：它在背训练文本（过拟合），而不是学到对没见过的文本也适用的规律。',
    'ch4.train.verse': '完整的句子中 {share}% 是五个或七个字',
    'ch4.own.summary': '用你自己的文本训练',
    'ch4.own.label': '你的文本',
    'ch4.own.placeholder': '粘贴任意文本，至少 {least} 个字符（越多越好）。',
    'ch4.own.use': '使用这段文本',
    'ch4.own.short': '模型至少需要 {least} 个字符来学习；这里只有 {n} 个。',
    'ch4.train.explain':
      '模型：{layers} 层，每层 {heads} 个头，每行 {dModel} 个数，RoPE 位置编码和 MLP，一次读 {context} 个字符。每一步从文本前十分之九中随机取 {batch} 个窗口，让每个权重沿损失梯度的反方向移动。',
    'ch4.train.baselines':
      '两条横线是没有注意力的模型，用同样的前十分之九统计，在留出的十分之一上评分：一元模型只知道每个字符出现的频率；二元模型还知道前一个字符。在留出文本上低于二元基线的模型，用上了前一个字符以外的上下文；曲线下面的一句话说明当前模型在哪里。',
    'ch4.train.snapshotExplain':
      '这段文本有快照，本章一开始显示的就是它：同一个模型，由仓库里的脚本从同一个种子在同一段文本上离线训练，以半精度数存储。“接着训练”让它从停下的地方在这里继续学；“从零开始”把它换成随机权重并在这里训练；“回到快照”再把存储的它拿回来。',
  },
};
