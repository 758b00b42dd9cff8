// The sentences of learn.mjs, in English and Chinese (same keys in both).
export default {
  en: {
    'stage.learn': 'One learning step',
    'ch3.title.target': 'A target for output 1, and how wrong it is',
    'ch3.title.update': 'The step: W ← W − η·∂L/∂W, and the forward pass again',
    'ch3.learn.output1': 'output 1',
    'ch3.learn.targetName': 'target',
    'ch3.learn.loss': 'L = ½·[{terms}] = {loss}',
    'ch3.learn.why':
      'Chapters 1 and 2 took W_Q, W_K and W_V as given. A model finds them by learning: it measures how wrong an output is, and nudges every weight the way that makes it less wrong.',
    'ch3.learn.suggest':
      'The page suggests, as output 1’s target, the value of the token query 1 attends to least: getting there needs the attention to move, not only the values. Type any other target.',
    'ch3.learn.lossWhy':
      'The loss is the squared error, halved so that its gradient is simply o₁ − t.',
    'ch3.formula.loss': 'The loss: half the squared distance from output 1 to its target',
    'ch3.narrate.target': 'Output 1 against its target: the loss is {loss}.',
    'ch3.learn.gradOutputs':
      'Start at the end. The loss reads output 1 only, so its gradient is o₁ − t in row 1 and zero elsewhere: positive where output 1 is too large.',
    'ch3.learn.backwards':
      'Now walk chapter 1’s stages in reverse. Hover over a cell (or Tab to it) to see its arithmetic.',
    'ch3.learn.gradWeights':
      'Output 1 is a₁₁v₁ + a₁₂v₂ + a₁₃v₃, so raising a₁ⱼ moves it along vⱼ: the gradient of a₁ⱼ is ∂L/∂o₁ dotted with vⱼ. Positive means “give this key less weight”; when all three are positive, only their differences count, since the weights must still sum to 1: the softmax, next, sorts that out.',
    'ch3.learn.gradScores':
      'The weights come from the scores through the softmax, and each weight depends on every score of its row (they share the sum).',
    'ch3.learn.jacobian':
      'Multiplying by the softmax’s row Jacobian comes down to a ∘ (g − a·g): each weight’s gradient minus the row’s average, scaled by the weight. A row of gradients therefore sums to 0.',
    'ch3.learn.gradQkv':
      'A score is qᵢ·kⱼ, so its gradient flows to query i along kⱼ and to key j along qᵢ. Values get the output gradients, weighted by the attention they received.',
    'ch3.learn.gradW':
      'Q = X·W_Q, so ∂L/∂W_Q = Xᵀ·∂L/∂Q: each input’s features times its query’s gradient, summed over the tokens. Likewise W_K and W_V.',
    'ch3.formula.learn-outputs': 'The gradient of the loss with respect to output 1',
    'ch3.formula.learn-attention': 'An output is a weighted sum of values',
    'ch3.formula.learn-scores': 'The softmax’s row Jacobian, applied to g = ∂L/∂aᵢ',
    'ch3.formula.learn-qkv': 'Scores are Q·Kᵀ',
    'ch3.formula.learn-weights': 'Queries are X·W_Q',
    'ch3.narrate.learn-outputs': 'The gradient of the loss with respect to the outputs.',
    'ch3.narrate.learn-attention': 'The gradient with respect to the attention weights.',
    'ch3.narrate.learn-scores': 'Through the softmax to the scores.',
    'ch3.narrate.learn-qkv': 'To the queries, keys and values.',
    'ch3.narrate.learn-weights': 'To the weight matrices.',
    'ch3.learn.before': 'before',
    'ch3.learn.distance':
      'Output 1 is now ‖o₁′ − t‖ = {distance} from its target (it started {start} away).',
    'ch3.learn.more': 'Take 10 more steps',
    'ch3.learn.reset': 'Back to one step',
    'ch3.learn.status': 'After {steps|# step|# steps}: loss {before} → {loss}.',
    'ch3.learn.update':
      'Every step moves every weight against its gradient, η = {eta} times it ({steps|one step|# steps} here; the weights shown are those after the last). Hover over a weight to see its old value, its gradient and its new value.',
    'ch3.learn.moved':
      'Run the forward pass again with the new weights: after {steps|this one step|these # steps} output 1 is nearer its target, and the loss falls from {before} to {after}.',
    'ch3.learn.repeat':
      'That is all training is: this step, repeated over millions of examples (a batch at a time), each nudging the weights a little.',
    'ch3.formula.update': 'Gradient descent: one step against the gradient',
    'ch3.narrate.update': 'After {steps|one step|# steps} output 1 is {row}; the loss is {after}.',
    'ch3.learn.movedUp':
      'Run the forward pass again with the new weights: after {steps|this one step|these # steps} the loss has not fallen but risen, from {before} to {after}: the steps diverged (below the buttons).',
    'ch3.learn.rising':
      'The steps diverged: from step {step} on, the loss grows instead of falling.',
    'ch3.learn.overflow':
      'The steps diverged: the loss grew from step {step} on, until the next step’s numbers would no longer fit in a float (∞, then NaN), so the page stopped before it.',
    'ch3.learn.divergedWhy':
      'Why: each step is too long for this gradient. Here ‖∂L/∂W‖ = {gradient}, so one step of η = {eta} times it moves the weights by {length}, while the weights themselves measure ‖W‖ = {weights}. The step jumps far past the lowest loss, to where the gradient is larger still, and the next jump is longer. Smaller numbers (inputs, target) or a smaller η keep the steps short.',
    'ch3.ask.scoreSign':
      'Is ∂L/∂s₁{sj}, the gradient of query 1’s score for key {j}, positive or negative? Type 1 or −1.',
    'ch3.hint.scoreSign':
      'Through the softmax: ∂L/∂s₁{sj} = a₁{sj}·(∂L/∂a₁{sj} − a₁·∂L/∂a₁). Compare ∂L/∂a₁{sj} with the row’s weighted average.',
    'ch3.hint.signTyping': 'Type 1 for positive (or up), −1 for negative (or down).',
    'ch3.ask.direction':
      'After the step, does W_V’s entry (row {r}, column {c}) go up or down? Type 1 for up, −1 for down.',
    'ch3.hint.direction': 'Its gradient is {grad}, and the step subtracts η times the gradient.',
    'ch3.panels.learn':
      'The learning step’s numbers: the gradient of the loss for every matrix, from ∂L/∂O back to ∂L/∂W_Q, ∂L/∂W_K and ∂L/∂W_V, and the weights after the step. They come from your X, weights and target.',
    'ch3.learn.backwards.touch':
      'Now walk chapter 1’s stages in reverse. Tap a cell to see its arithmetic.',
    'ch3.learn.update.touch':
      'Every weight moves a little against its gradient: η = {eta} times it. Tap a weight to see its old value, its gradient and its new value.',
  },
  zh: {
    'stage.learn': '一步学习',
    'ch3.title.target': '给输出 1 定一个目标，看它差多远',
    'ch3.title.update': '这一步：W ← W − η·∂L/∂W，再做一次前向计算',
    'ch3.learn.output1': '输出 1',
    'ch3.learn.targetName': '目标',
    'ch3.learn.loss': 'L = ½·[{terms}] = {loss}',
    'ch3.learn.why':
      '第一、二章把 W_Q、W_K、W_V 当作已知。模型是靠学习找到它们的：衡量输出错了多少，再把每个权重朝让它错得更少的方向推一点。',
    'ch3.learn.suggest':
      '页面建议的输出 1 目标，是查询 1 最不关注的那个词元的值：要达到它，注意力本身必须移动，而不只是值。也可以输入任何其他目标。',
    'ch3.learn.lossWhy': '损失是平方误差，再除以 2，这样它的梯度正好是 o₁ − t。',
    'ch3.formula.loss': '损失：输出 1 到目标距离平方的一半',
    'ch3.narrate.target': '输出 1 与目标相比：损失为 {loss}。',
    'ch3.learn.gradOutputs':
      '从最后开始。损失只读输出 1，所以它的梯度在第 1 行是 o₁ − t，其余为 0：哪一项为正，输出 1 的那一项就太大了。',
    'ch3.learn.backwards':
      '现在把第一章的各阶段倒过来走。把鼠标移到格子上（或聚焦它）即可看到它的算式。',
    'ch3.learn.gradWeights':
      '输出 1 是 a₁₁v₁ + a₁₂v₂ + a₁₃v₃，所以增大 a₁ⱼ 会让它沿 vⱼ 移动：a₁ⱼ 的梯度就是 ∂L/∂o₁ 与 vⱼ 的点积。为正表示“少给这个键一些权重”；三个都为正时，只有它们之间的差别才算数，因为权重之和仍须为 1：下一步的 softmax 会处理这一点。',
    'ch3.learn.gradScores':
      '权重由分数经 softmax 得到，每个权重都依赖本行的所有分数（它们共用分母）。',
    'ch3.learn.jacobian':
      '乘以 softmax 的行雅可比矩阵，结果就是 a ∘ (g − a·g)：每个权重的梯度减去本行的平均，再乘以该权重。因此一行梯度之和为 0。',
    'ch3.learn.gradQkv':
      '分数是 qᵢ·kⱼ，所以它的梯度沿 kⱼ 流向查询 i，沿 qᵢ 流向键 j。值得到的是输出的梯度，按它们获得的注意力加权。',
    'ch3.learn.gradW':
      'Q = X·W_Q，所以 ∂L/∂W_Q = Xᵀ·∂L/∂Q：每个输入的特征乘以其查询的梯度，对所有词元求和。W_K、W_V 同理。',
    'ch3.formula.learn-outputs': '损失对输出 1 的梯度',
    'ch3.formula.learn-attention': '输出是值的加权和',
    'ch3.formula.learn-scores': 'softmax 的行雅可比矩阵作用于 g = ∂L/∂aᵢ',
    'ch3.formula.learn-qkv': '分数是 Q·Kᵀ',
    'ch3.formula.learn-weights': '查询是 X·W_Q',
    'ch3.narrate.learn-outputs': '损失对各输出的梯度。',
    'ch3.narrate.learn-attention': '对注意力权重的梯度。',
    'ch3.narrate.learn-scores': '穿过 softmax 到分数。',
    'ch3.narrate.learn-qkv': '到查询、键和值。',
    'ch3.narrate.learn-weights': '到权重矩阵。',
    'ch3.learn.before': '之前',
    'ch3.learn.distance': '输出 1 现在离目标 ‖o₁′ − t‖ = {distance}（开始时为 {start}）。',
    'ch3.learn.more': '再走 10 步',
    'ch3.learn.reset': '回到一步',
    'ch3.learn.status': '{steps|一步之后|# 步之后}：损失 {before} → {loss}。',
    'ch3.learn.update':
      '每一步都让每个权重逆着自己的梯度移动 η = {eta} 倍梯度（这里共 {steps} 步；显示的是最后一步之后的权重）。把鼠标移到权重上可看到旧值、梯度和新值。',
    'ch3.learn.moved':
      '用新权重再做一次前向计算：这 {steps} 步之后，输出 1 更接近目标，损失从 {before} 降到 {after}。',
    'ch3.learn.repeat':
      '训练就是这么回事：把这一步在数百万个样本上（一次一批）重复，每次把权重推一点。',
    'ch3.formula.update': '梯度下降：逆着梯度走一步',
    'ch3.narrate.update': '{steps|一步之后|# 步之后}输出 1 为 {row}；损失为 {after}。',
    'ch3.learn.movedUp':
      '用新权重再做一次前向计算：这 {steps} 步之后，损失没有下降，反而从 {before} 升到 {after}：步骤发散了（见按钮下方）。',
    'ch3.learn.rising': '步骤发散了：从第 {step} 步起，损失不降反升。',
    'ch3.learn.overflow':
      '步骤发散了：从第 {step} 步起损失开始增大，直到下一步的数值超出浮点数的范围（∞，然后是 NaN），所以页面在那一步之前停下。',
    'ch3.learn.divergedWhy':
      '原因：对这样的梯度来说，每一步都太长了。这里 ‖∂L/∂W‖ = {gradient}，所以一步 η = {eta} 倍梯度会让权重移动 {length}，而权重本身只有 ‖W‖ = {weights}。一步跨过了损失最低的地方，落到梯度更大的地方，下一步跨得更远。更小的数（输入、目标）或更小的 η 能让步子变短。',
    'ch3.ask.scoreSign': '∂L/∂s₁{sj}（查询 1 对键 {j} 的分数的梯度）是正还是负？输入 1 或 −1。',
    'ch3.hint.scoreSign':
      '穿过 softmax：∂L/∂s₁{sj} = a₁{sj}·(∂L/∂a₁{sj} − a₁·∂L/∂a₁)。比较 ∂L/∂a₁{sj} 与本行的加权平均。',
    'ch3.hint.signTyping': '正（或上升）输入 1，负（或下降）输入 −1。',
    'ch3.ask.direction':
      '这一步之后，W_V 的（第 {r} 行，第 {c} 列）项是变大还是变小？变大输入 1，变小输入 −1。',
    'ch3.hint.direction': '它的梯度是 {grad}，而这一步减去 η 乘以梯度。',
    'ch3.panels.learn':
      '学习步骤的数字：损失对每个矩阵的梯度，从 ∂L/∂O 一路回到 ∂L/∂W_Q、∂L/∂W_K 和 ∂L/∂W_V，以及这一步之后的权重。它们由你的 X、权重和目标算出。',
    'ch3.learn.backwards.touch': '现在把第一章的各阶段倒过来走。轻点格子即可看到它的算式。',
    'ch3.learn.update.touch':
      '每个权重都逆着自己的梯度移动一点：移动 η = {eta} 倍梯度。轻点权重可看到旧值、梯度和新值。',
  },
};
