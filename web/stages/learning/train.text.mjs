// The sentences of train.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.train': 'Train a tiny model live',
    'ch3.title.train': 'Training a tiny model on the induction task',
    'ch3.narrate.train':
      'Press Train: a tiny model learns to continue a repeated run of letters. Watch the loss fall slowly, then drop sharply when the induction head forms.',
    'ch3.train.explain':
      'Each row is random letters, a run of letters, the same run again, more random letters. Inside the repeat the next letter is predictable, but only by finding where the current letter came before and copying what followed it. Training is the learning step of this chapter repeated: here up to {steps} times, on {batch} rows each.',
    'ch3.train.task':
      'The task, in letters: random letters, a run (underlined), the same run again (bold), more random letters. The run’s length and place change from row to row. Every row starts with ⟨s⟩, a start token that is no letter.',
    'ch3.train.rowLabel':
      'A row: a run of {n|# letter|# letters} after {p|# random letter|# random letters}, then the run again',
    'ch3.train.train': 'Train',
    'ch3.train.pause': 'Pause',
    'ch3.train.reset': 'Reset',
    'ch3.train.positions': 'Positions',
    'ch3.train.positions.rope': 'RoPE',
    'ch3.train.positions.alibi': 'ALiBi',
    'ch3.train.positions.learned': 'Learned',
    'ch3.train.positions.none': 'None',
    'ch3.train.layers': 'Layers',
    'ch3.train.heads': 'Heads per layer',
    'ch3.train.seed': 'Seed',
    'ch3.train.speed': 'Training speed',
    'ch3.train.speed.fast': 'Fast: 50 steps between redraws',
    'ch3.train.speed.slow': 'Slow: 10 steps, then a ¼ s pause',
    'ch3.train.ready': 'Ready: press Train.',
    'ch3.train.starting': 'Starting the worker…',
    'ch3.train.status': 'step {step} · loss {loss}',
    'ch3.train.paused': 'paused at step {step} · loss {loss}',
    'ch3.train.done':
      'This run has taken its {steps} steps, the most a run takes here: Reset, or another switch, starts a new one.',
    'ch3.train.failed': 'Training stopped: {reason}',
    'ch3.train.dropped': 'The loss dropped at step {step}, {seconds} s after Train.',
    'ch3.train.droppedHeads':
      'The loss dropped at step {step}, {seconds} s after Train. Now layer {prevLayer}’s head {prevHead} looks at the previous token ({prev} of its weight), and layer {layer}’s head {head} at the token after the earlier copy of the current one: {before} of its weight before the drop, {after} just after it, {now} now (step {nowStep}). Together they are an induction head.',
    'ch3.train.why.two':
      'Two layers: a head of layer 1 can copy each token’s previous token into it, and a head of layer 2 can then look for “the token whose previous token is mine”. That is the induction head; it forms suddenly, and the loss drops with it.',
    'ch3.train.why.oneLayer':
      'One layer cannot learn it: an induction head looks for the key whose previous token is the current one, and a key carries its previous token only once a head of an earlier layer has copied it in. Positions (RoPE, ALiBi, learned or none) tell a head where a token is, not which token came before it. The loss stays high: what one layer can learn (which letters are common, which have already appeared in this row) takes only part of it.',
    'ch3.train.gone':
      'A new model from the seed: the trained one ({step|# step|# steps}) is gone. To keep a model, copy its link or save its parameters before changing a switch.',
    'ch3.train.why.none':
      'Without positions attention cannot tell order (the first stage of this chapter): no head can look straight at “the token just before me”. A token can only roughly tell how far it is from the start (under the causal mask it sees how many tokens came before it), so the model learns slowly and only in part: no sudden drop.',
    'ch3.train.headsTitle':
      'Every head’s attention on one held-out row (rows: queries, columns: keys; letters along both edges), and what each head does',
    'ch3.tables.reads': 'reads as',
    'ch3.train.droppedInduction':
      'The loss dropped at step {step}, {seconds} s after Train. Now layer {layer}’s head {head} looks at the token after the earlier copy of the current one: {before} of its weight before the drop, {after} just after it, {now} now (step {nowStep}). No head reads as a previous-token head in a layer below it.',
    'ch3.train.model':
      'The model: {layers|# layer|# layers} of self-attention with {heads|# head|# heads} each, d_model = {dModel} (each head works on {dHead} of those numbers), and no MLP. It holds {parameters} parameters: an embedding of each of its {vocab} tokens, per layer a LayerNorm and W_Q, W_K, W_V, W_O, a last LayerNorm, and the unembedding that turns a row into {vocab} logits{positions}.',
    'ch3.train.model.rope': ' (RoPE turns queries and keys by position and adds no parameters)',
    'ch3.train.model.alibi':
      ' (ALiBi subtracts from each head’s score of a key a fixed slope times how far back the key is, a gentler slope for each head, and adds no parameters)',
    'ch3.train.model.learned': ', plus a learned position vector for each of its {context} places',
    'ch3.train.model.none': ' (no positions at all)',
    'ch3.train.loss':
      'Training lowers the cross-entropy of the next token. At each place t the model gives every token a probability, the softmax of its logits; the loss is minus the log of the probability it gave the token that really comes next, averaged over the N places that count (inside the repeat, where the next letter can be known). A uniform guess over 16 tokens scores ln 16 ≈ 2.77; a sure right guess, 0.',
    'ch3.formula.crossEntropy':
      'Cross-entropy of the next token: minus the mean log-probability of each true next token',
    'ch3.train.loaded': 'Loaded a model trained for {step|# step|# steps}: press Train to go on.',
    'ch3.panels.train':
      'The training run’s numbers, as it trains: here, what each head does on the held-out row of the latest snapshot (its mean weight on the previous token, on the token after the current token’s earlier copy, and what it reads as); the loss every 100 steps is in “All numbers as tables”, under the scene. The switches are in the scene; save every step’s loss (CSV) and the parameters (JSON, or a link) from there.',
    'ch3.tables.loss': 'loss',
    'ch3.tables.lossColumn': 'loss',
    'ch3.tables.noSteps': 'No training steps yet: press Train in the scene.',
    'ch3.tables.heads': 'each head’s mean weight, at step {step}',
    'ch3.tables.previous': 'previous token',
    'ch3.tables.induction': 'induction',
    'ch3.tables.columnsNote':
      '“previous token”: the head’s mean weight on the token just before the current one; “induction”: on the token after the current token’s earlier copy (where an induction head looks).',
    'ch3.tables.fixedNote':
      '“fixed token {token}”: the head puts most of its weight on the token {token} wherever it stands, whatever the current token.',
    'ch3.tables.noHeads': 'The heads’ weights come with the first snapshot of this model.',
    'ch3.fail.oneLayer':
      'After {step|# step|# steps} there has been no drop: the loss, averaged over its last {smoothing} steps, is still {loss}, where two layers drop to almost 0 within several hundred steps. One layer cannot learn the task: an induction head looks for the token whose previous token is the current one, and a key holds its previous token only if a head of an earlier layer has written it there. One layer has no earlier layer; what it can learn (which letters are frequent, which came earlier in the row) lowers the loss only part of the way.',
    'ch3.fail.none':
      'After {step|# step|# steps} there has been no sudden drop: the loss, averaged over its last {smoothing} steps, has only crept down to {loss}, where the same two layers with RoPE or learned positions drop to almost 0 within several hundred steps. Without positions no head can ask for “the token just before me”. All a token can tell is roughly how far it is from the start (under the causal mask it sees how many tokens came before it): a blurred position, which the model learns slowly and only in part.',
  },
  zh: {
    'stage.train': '现场训练一个小模型',
    'ch3.title.train': '在归纳任务上训练一个小模型',
    'ch3.narrate.train':
      '按“训练”：一个小模型学着接续一段重复的字母。看损失先缓慢下降，等归纳头形成时再骤降。',
    'ch3.train.explain':
      '每一行是：随机字母、一段字母、同一段字母再来一次、更多随机字母。在重复的那段里，下一个字母是可以预测的，但只能靠找到当前字母之前出现的位置，并抄下它后面的字母。训练就是本章的学习步骤一再重复：这里最多 {steps} 次，每次 {batch} 行。',
    'ch3.train.task':
      '任务（用字母表示）：随机字母、一段字母（下划线）、同一段再来一次（粗体）、更多随机字母。这段的长度和位置每行都不同。每行都以 ⟨s⟩ 开头，它是起始词元，不是字母。',
    'ch3.train.rowLabel': '一行：{p} 个随机字母之后是一段 {n} 个字母，然后这段再来一次',
    'ch3.train.train': '训练',
    'ch3.train.pause': '暂停',
    'ch3.train.reset': '重置',
    'ch3.train.positions': '位置',
    'ch3.train.positions.rope': 'RoPE',
    'ch3.train.positions.alibi': 'ALiBi',
    'ch3.train.positions.learned': '学习的位置向量',
    'ch3.train.positions.none': '无',
    'ch3.train.layers': '层数',
    'ch3.train.heads': '每层头数',
    'ch3.train.seed': '种子',
    'ch3.train.speed': '训练速度',
    'ch3.train.speed.fast': '快：每 50 步重画一次',
    'ch3.train.speed.slow': '慢：每 10 步暂停 ¼ 秒',
    'ch3.train.ready': '就绪：请按“训练”。',
    'ch3.train.starting': '正在启动 Worker…',
    'ch3.train.status': '第 {step} 步 · 损失 {loss}',
    'ch3.train.paused': '已暂停，第 {step} 步 · 损失 {loss}',
    'ch3.train.done':
      '这次训练已走完 {steps} 步，这里一次训练最多走这么多步：按“重置”或换一个开关，就会开始新的训练。',
    'ch3.train.failed': '训练停止：{reason}',
    'ch3.train.dropped': '损失在第 {step} 步时骤降，按下“训练”后 {seconds} 秒。',
    'ch3.train.droppedHeads':
      '损失在第 {step} 步时骤降，按下“训练”后 {seconds} 秒。此时第 {prevLayer} 层的头 {prevHead} 看前一个词元（其权重的 {prev}），第 {layer} 层的头 {head} 看当前词元上一次出现之后的那个词元：骤降前占其权重的 {before}，刚骤降后 {after}，现在（第 {nowStep} 步）{now}。两者合起来就是归纳头。',
    'ch3.train.why.two':
      '两层：第 1 层的一个头可以把每个词元的前一个词元抄进它自己，第 2 层的一个头于是可以寻找“前一个词元是我的那个词元”。这就是归纳头；它突然形成，损失随之骤降。',
    'ch3.train.why.oneLayer':
      '一层学不会：归纳头要找“前一个词元是当前词元”的那个键，而一个键只有在更早一层的头把它前面的词元抄进来之后，才带着那个词元。位置信息（RoPE、ALiBi、学习的位置或没有）只告诉头一个词元在哪里，不告诉它前面是哪个词元。损失一直很高：一层能学到的（哪些字母常见、哪些字母在这一行里已经出现过）只能让损失降下一部分。',
    'ch3.train.gone':
      '已换成一个从种子开始的新模型：之前训练的模型（{step} 步）已丢弃。要保留模型，请在改开关之前复制它的链接或保存它的参数。',
    'ch3.train.why.none':
      '没有位置信息，注意力分不清顺序（本章第一阶段）：没有头能直接找到“紧挨在我前面的词元”。一个词元只能大致知道自己离开头有多远（在因果掩码下，它看得到前面有多少个词元），所以模型学得慢，也只学到一部分：没有骤降。',
    'ch3.train.headsTitle':
      '每个头在一行留出数据上的注意力（行：查询，列：键；两边标有字母），以及每个头在做什么',
    'ch3.tables.reads': '读作',
    'ch3.train.droppedInduction':
      '损失在第 {step} 步时骤降，按下“训练”后 {seconds} 秒。此时第 {layer} 层的头 {head} 看当前词元上一次出现之后的那个词元：骤降前占其权重的 {before}，刚骤降后 {after}，现在（第 {nowStep} 步）{now}。在它下面的层里，没有哪个头读作前一词元头。',
    'ch3.train.model':
      '模型：{layers} 层自注意力，每层 {heads} 个头，d_model = {dModel}（每个头处理其中 {dHead} 个数），没有 MLP。它共有 {parameters} 个参数：{vocab} 个词元各自的嵌入，每层一个 LayerNorm 和 W_Q、W_K、W_V、W_O，最后一个 LayerNorm，以及把一行变回 {vocab} 个 logits 的反嵌入{positions}。',
    'ch3.train.model.rope': '（RoPE 按位置旋转查询和键，不增加参数）',
    'ch3.train.model.alibi':
      '（ALiBi 从每个头对一个键的分数里减去一个固定斜率乘以这个键在多远之前，每个头的斜率更平缓一级，不增加参数）',
    'ch3.train.model.learned': '，外加 {context} 个位置各一个学到的位置向量',
    'ch3.train.model.none': '（完全没有位置信息）',
    'ch3.train.loss':
      '训练降低的是下一个词元的交叉熵。在每个位置 t，模型给每个词元一个概率（它的 logits 经过 softmax）；损失是它给真正的下一个词元的概率取对数再取负，对 N 个计入的位置求平均（在重复段里，下一个字母是可以知道的）。对 16 个词元均匀瞎猜得 ln 16 ≈ 2.77；有把握地猜对得 0。',
    'ch3.formula.crossEntropy': '下一个词元的交叉熵：每个真实下一个词元的对数概率的平均值取负',
    'ch3.train.loaded': '已载入一个训练了 {step} 步的模型：按“训练”继续。',
    'ch3.panels.train':
      '训练过程中的数字：这里是在最新快照的留出行上每个头在做什么（它在前一个词元上的平均权重、在当前词元上一次出现之后那个词元上的平均权重，以及它被读作什么）；每 100 步的损失在场景下方的“以表格查看所有数字”里。开关在场景里；每一步的损失（CSV）和参数（JSON 或链接）也从那里保存。',
    'ch3.tables.loss': '损失',
    'ch3.tables.lossColumn': '损失',
    'ch3.tables.noSteps': '还没有训练步：请在场景里按“训练”。',
    'ch3.tables.heads': '每个头的平均权重，第 {step} 步',
    'ch3.tables.previous': '前一个词元',
    'ch3.tables.induction': '归纳',
    'ch3.tables.columnsNote':
      '“前一个词元”：这个头在紧挨当前词元之前那个词元上的平均权重；“归纳”：在当前词元上一次出现之后那个词元上的平均权重（归纳头看的地方）。',
    'ch3.tables.fixedNote':
      '“固定词元 {token}”：不管当前是哪个词元，这个头都把大部分权重放在词元 {token} 上，不管它在哪里。',
    'ch3.tables.noHeads': '头的权重会随这个模型的第一个快照出现。',
    'ch3.fail.oneLayer':
      '训练了 {step} 步，损失没有骤降，最后 {smoothing} 步的平均损失仍是 {loss}；两层的模型在几百步之内就降到几乎为 0。一层学不会这个任务：归纳头要找“前一个词元是当前词元”的那个词元，而一个键只有在更早一层的头把前一个词元写进它之后，才带着它前面的词元。一层的模型没有更早的层；它能学到的（哪些字母常见、哪些字母在这一行里出现过）只能让损失降下一部分。',
    'ch3.fail.none':
      '训练了 {step} 步，损失没有骤降，最后 {smoothing} 步的平均损失只是慢慢降到 {loss}；同样的两层用 RoPE 或学习的位置，在几百步之内就降到几乎为 0。没有位置信息，没有头能直接找“紧挨在我前面的词元”。一个词元只能大致知道自己离开头有多远（在因果掩码下，它看得到前面有多少个词元）：这是模糊的位置，模型学得慢，也只学到一部分。',
  },
};
