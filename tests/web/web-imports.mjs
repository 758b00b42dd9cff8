// The page's modules and what each imports, read as text (nothing is loaded): shared by the
// tests of what the page may import (public-imports.test.mjs, layers.test.mjs).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const web = join(root, 'web');

/** Every .mjs file under web/, as [path relative to web/, text]. */
export function webModules(folder = web) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return webModules(path);
    return entry.name.endsWith('.mjs') ? [[relative(web, path), readFileSync(path, 'utf8')]] : [];
  });
}

/** The specifiers a module imports: static imports and re-exports, and import(). */
export function specifiers(text) {
  const found = [];
  for (const pattern of [/\bfrom\s*'([^']+)'/g, /\bimport\s*'([^']+)'/g, /\bimport\(\s*'([^']+)'/g])
    for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

/**
 * Each import by path of every module under web/, as [file, target], both relative to web/
 * (a target outside web/ starts with '../').
 */
export function importsByPath() {
  return webModules().flatMap(([file, text]) =>
    specifiers(text)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => [file, relative(web, resolve(dirname(join(web, file)), specifier))]),
  );
}
