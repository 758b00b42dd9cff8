// Where chapter 4's snapshots come from (the models trained offline, web/snapshots/, copied to
// dist/snapshots/ by web/build.mjs): fetched beside the page or the package's worker, or, in
// the offline file (which cannot fetch), embedded in it as base64. Each gives what
// decodeSnapshot (src/js/tasks/text-snapshot.mjs) reads: { manifest, bytes }.

async function fetched(url, read) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return read(response);
}

/** The snapshot `name` from the folder at `folder` (an absolute URL ending in '/'). */
export async function fetchSnapshot(folder, name) {
  const [manifest, bytes] = await Promise.all([
    fetched(new URL(`${name}.json`, folder), (r) => r.json()),
    fetched(new URL(`${name}.f16`, folder), (r) => r.arrayBuffer()),
  ]);
  return { manifest, bytes };
}

/**
 * The snapshot `name` of the offline file's table { name: { manifest, base64 } | { missing } }
 * (`missing`: why this file holds none of it).
 */
export async function embeddedSnapshot(table, name) {
  const entry = Object.hasOwn(table, name)
    ? table[name]
    : { missing: `${name} is not in this file` };
  if (entry.missing) throw new Error(entry.missing);
  const text = atob(entry.base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return { manifest: entry.manifest, bytes };
}
