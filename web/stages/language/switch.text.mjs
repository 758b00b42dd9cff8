// The sentences of chapter 4's stage "Switch off a head".
export default {
  en: {
    'ch4.stage.switch': 'Switch off a head',
    'ch4.title.switch': 'Switch heads off and watch the loss',
    'ch4.narrate.switch':
      'Untick a head to switch it off: the model runs again on your sentence without it, and the page says how much the loss and the prediction changed.',
    'ch4.switch.allOn': 'All heads on',
    'ch4.switch.before': 'Every head on',
    'ch4.switch.after': '{n|# head|# heads} off',
    'ch4.switch.none':
      'Every head is on: the loss on your sentence is {loss} nats per character. Untick a head.',
    'ch4.switch.changed':
      'With {heads} off, the loss on your sentence goes from {from} to {to} nats per character ({change}, {percent}%). The probability of “{truth}” goes from {pFrom} to {pTo}. {guess}',
    'ch4.switch.guessStays': 'The top guess stays “{guess}”.',
    'ch4.switch.barsCaption':
      'Below: the characters the model finds likeliest to follow “{before}”, with every head on and with the heads you switched off; the true next one, your sentence’s last, is “{truth}”.',
    'ch4.list.separator': ', ',
    'ch4.switch.guessChanged': 'The top guess changes from “{guessFrom}” to “{guessTo}”.',
    'ch4.switch.explain':
      'Switching a head off sets its output to zero before W_O mixes the heads, on every row; the rest of the model is unchanged. A head the model relies on raises the loss when it goes; a head it does not need changes little.',
    'ch4.switch.how':
      'The heads you switch off stay off in “Writing”, so you can see what the model writes without them.',
  },
  zh: {
    'ch4.stage.switch': '关掉一个头',
    'ch4.title.switch': '关掉注意力头，看损失的变化',
    'ch4.narrate.switch':
      '取消勾选一个头即可关掉它：模型在你的句子上不带它重新运行，页面说出损失和预测变了多少。',
    'ch4.switch.allOn': '打开所有头',
    'ch4.switch.before': '所有头都开着',
    'ch4.switch.after': '关掉 {n} 个头',
    'ch4.switch.none': '所有头都开着：你的句子上每字符损失 {loss} 奈特。取消勾选一个头试试。',
    'ch4.switch.changed':
      '关掉 {heads} 后，你的句子上每字符损失从 {from} 变为 {to} 奈特（{change}，{percent}%）。“{truth}”的概率从 {pFrom} 变为 {pTo}。{guess}',
    'ch4.switch.guessStays': '首选仍是“{guess}”。',
    'ch4.switch.barsCaption':
      '下面是模型认为最可能跟在“{before}”之后的字符：一组是所有头都开着时的，一组是关掉你选的头之后的；真正的下一个字符是你句子的最后一个字“{truth}”。',
    'ch4.list.separator': '、',
    'ch4.switch.guessChanged': '首选从“{guessFrom}”变为“{guessTo}”。',
    'ch4.switch.explain':
      '关掉一个头，就是在 W_O 混合各头之前，把它每一行的输出置零；模型的其余部分不变。模型依赖的头被关掉时损失上升；它不需要的头，关掉后变化很小。',
    'ch4.switch.how': '你关掉的头在“写作”一节中仍然关着，可以看看没有它们时模型写出什么。',
  },
};
