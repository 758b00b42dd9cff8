/**
 * `attention-explained/attention-explainer.mjs`: importing it defines the custom element
 * `<attention-explainer>`, the explainer's walkthrough embedded in a page.
 *
 * ```html
 * <attention-explainer lang="en" step="scores-1" controls="minimal"></attention-explainer>
 * ```
 *
 * Attributes (read when the element is connected): `lang` (en | zh), `step` (a step id, as in
 * the page's `#step=` links), `chapter`, `example` (the page's URL encoding of settings and
 * numbers), `controls` (full | minimal | none), `autoplay`, and `base-url`.
 *
 * Taken out of the page, an explainer stops its playback and its training worker; put back,
 * it starts anew from its attributes.
 * @packageDocumentation
 */

/** The `<attention-explainer>` element. */
export declare class AttentionExplainer extends HTMLElement {
  /**
   * The folder of the package's files (`attention.mjs`, `train-worker.mjs`, the `.wasm`), for
   * a page that serves them somewhere else than beside this module (or than where an app's
   * bundler put them); relative URLs resolve against the page. Reflects the `base-url`
   * attribute; read when the element is connected. `''`: beside this module.
   */
  baseUrl: string;
  /** Settles once the explainer has started (or failed to, saying why on screen). */
  readonly ready: Promise<unknown> | undefined;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-explainer': AttentionExplainer;
  }
}
