// A drawing (capture.mjs) painted on a 2D canvas: the PNG export and every GIF frame.

function roundedRect(context, x, y, width, height, radius) {
  context.beginPath();
  if (radius > 0 && context.roundRect) context.roundRect(x, y, width, height, radius);
  else context.rect(x, y, width, height);
}

/**
 * @param {{ width, height, items }} drawing
 * @param {number} [scale] pixels per CSS pixel
 * @returns {HTMLCanvasElement}
 */
export function drawOnCanvas(drawing, scale = 1, canvas = document.createElement('canvas')) {
  canvas.width = Math.ceil(drawing.width * scale);
  canvas.height = Math.ceil(drawing.height * scale);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  context.setTransform(scale, 0, 0, scale, 0, 0);
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, drawing.width, drawing.height);
  context.textBaseline = 'middle';
  for (const item of drawing.items) {
    context.globalAlpha = item.opacity;
    if (item.type === 'box') {
      if (item.fill) {
        context.fillStyle = item.fill;
        roundedRect(context, item.x, item.y, item.width, item.height, item.radius);
        context.fill();
      }
      if (item.stroke) {
        const inset = item.strokeWidth / 2;
        context.strokeStyle = item.stroke;
        context.lineWidth = item.strokeWidth;
        roundedRect(
          context,
          item.x + inset,
          item.y + inset,
          item.width - 2 * inset,
          item.height - 2 * inset,
          item.radius,
        );
        context.stroke();
      }
    } else if (item.type === 'line') {
      context.strokeStyle = item.stroke;
      context.lineWidth = item.strokeWidth;
      context.beginPath();
      context.moveTo(item.x1, item.y1);
      context.lineTo(item.x2, item.y2);
      context.stroke();
    } else {
      const { family, size, weight, style } = item.font;
      context.font = `${style} ${weight} ${size}px ${family}`;
      context.fillStyle = item.color;
      context.fillText(item.text, item.x, item.y);
    }
  }
  context.globalAlpha = 1;
  return canvas;
}

/** The canvas as PNG bytes. */
export function canvasToPng(canvas) {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the canvas could not be encoded'))),
      'image/png',
    ),
  );
}
