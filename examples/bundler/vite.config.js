// Vite needs no configuration for the package; these headers make the pages cross-origin
// isolated (dev server and `vite preview`), which wasm threads need.
const isolated = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
export default { server: { headers: isolated }, preview: { headers: isolated } };
