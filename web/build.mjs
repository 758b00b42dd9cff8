// Assembles the page into dist/ (placeholder until the explainer lands).
import { copyFileSync, mkdirSync } from 'node:fs';
mkdirSync('dist', { recursive: true });
copyFileSync('web/index.html', 'dist/index.html');
